import type { Actor } from "../auth/actor.ts";
import { fail } from "../errors.ts";

export function assertOperator(actor: Actor) {
  if (!actor.isOperator) fail("auth.operator_required", "This operation needs an operator account");
}
