import type { MeResponse } from "@licensing/contracts";
import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "./trpc.ts";

/** The signed-in user; the app layout loads it before any page renders. */
export function useMe(): MeResponse {
  const trpc = useTRPC();
  return useSuspenseQuery(trpc.auth.me.queryOptions()).data;
}

/**
 * What the interface offers (spec §5, minimum roles); the server's policy decides and refuses regardless.
 * A member's role holds on their company and its whole subtree, so one role answers for every page.
 */
export function permissions(me: MeResponse) {
  const admin = me.isOperator || me.role === "owner" || me.role === "admin";
  return {
    operator: me.isOperator,
    createChildCompany: admin,
    createRootCompany: me.isOperator,
    reparentCompany: me.isOperator,
    archiveCompany: me.isOperator || me.role === "owner",
    grantOwner: me.isOperator || me.role === "owner",
    manageUsers: admin,
    manageTemplates: me.isOperator,
    manageLicenses: admin,
    manageTokens: admin,
    readAudit: me.isOperator,
    manageWebhooks: me.isOperator,
  };
}
export type Permissions = ReturnType<typeof permissions>;

export function usePermissions() {
  return permissions(useMe());
}
