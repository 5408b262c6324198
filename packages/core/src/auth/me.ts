import type { MeResponse } from "@licensing/contracts";
import type { Actor } from "./actor.ts";

export function describeActor(actor: Actor): MeResponse {
  if (actor.kind === "token") {
    return {
      id: actor.tokenId,
      email: actor.email,
      displayName: actor.tokenName,
      isOperator: false,
      totpEnabled: false,
      companyId: actor.companyId,
      role: "admin",
    };
  }
  return {
    id: actor.userId,
    email: actor.email,
    displayName: actor.displayName,
    isOperator: actor.isOperator,
    totpEnabled: actor.totpEnabled,
    companyId: actor.companyId,
    role: actor.role,
  };
}
