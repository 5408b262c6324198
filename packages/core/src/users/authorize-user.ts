import { eq } from "drizzle-orm";
import { tables, type Executor, type UserRow } from "@licensing/db";
import type { Actor } from "../auth/actor.ts";
import { fail } from "../errors.ts";
import { authorizeCompany, type MinimumRole } from "../policy/index.ts";

/**
 * Loads a user the actor may manage with at least `minimum` on the user's company (row-locked for the
 * change). Users outside the visible subtree, and operators without a company, are `user.not_found` for
 * non-operators; a visible operator needs an operator (`auth.operator_required`).
 */
export async function authorizeUser(
  executor: Executor,
  actor: Actor,
  id: string,
  minimum: MinimumRole,
): Promise<UserRow> {
  const [user] = await executor.select().from(tables.users).where(eq(tables.users.id, id)).for("update");
  if (!user || (!actor.isOperator && !user.companyId)) {
    return fail("user.not_found", `No user with id ${id} is visible to you`);
  }
  if (actor.isOperator) return user;
  await authorizeCompany(executor, actor, user.companyId!, minimum, "user.not_found");
  if (user.isOperator) fail("auth.operator_required", "Only an operator may manage an operator account");
  return user;
}
