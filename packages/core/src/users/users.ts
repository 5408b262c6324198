import { and, asc, eq, isNull } from "drizzle-orm";
import { isUniqueViolation, tables, type Executor, type UserRow } from "@licensing/db";
import type { InviteUserRequest, UserResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import { createInvitation } from "../auth/invitations.ts";
import { closeUserSessions } from "../auth/sessions.ts";
import { findUserByEmail } from "../auth/users.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import {
  assertCompanyFilterInScope,
  authorizeCompany,
  findCompany,
  hasRole,
  inSubtree,
  membershipOf,
} from "../policy/index.ts";
import { assertNotLastOperator } from "../operators/last-operator.ts";
import { authorizeUser } from "./authorize-user.ts";
import { toUserResponse } from "./user-response.ts";

const u = tables.users;
const grantMinimum = (role: string | null) => (role === "owner" ? "owner" : "admin");

/**
 * Users of `companyId` and its subtree (Admin there). Without a filter: operators get every account,
 * others the subtree of their own company (where they must be Admin).
 */
export async function listUsers(
  deps: Deps,
  actor: Actor,
  query: { companyId?: string | undefined },
): Promise<UserResponse[]> {
  let root: string | undefined;
  if (query.companyId) {
    root = (await assertCompanyFilterInScope(deps.db, actor, query.companyId, "admin")).path;
  } else if (!actor.isOperator) {
    const member = membershipOf(actor) ?? fail("auth.forbidden", "Listing users needs the admin role");
    root = (await authorizeCompany(deps.db, actor, member.companyId, "admin")).path;
  }
  const rows = await deps.db
    .select({ user: u })
    .from(u)
    .leftJoin(tables.companies, eq(tables.companies.id, u.companyId))
    .where(root === undefined ? undefined : inSubtree(tables.companies.path, root))
    .orderBy(asc(u.email));
  return rows.map((r) => toUserResponse(r.user));
}

/** A pending or revoked company account inside the actor's reach may be invited again (→ pending). */
async function mayInviteAgain(executor: Executor, actor: Actor, existing: UserRow) {
  if (existing.status === "active" || existing.isOperator || !existing.companyId) return false;
  const company = await findCompany(executor, existing.companyId);
  return Boolean(company && hasRole(actor, company, grantMinimum(existing.role)));
}

/** Creates (or re-opens) a pending account and mails a 7-day invitation link. Owner is needed to grant owner. */
export async function inviteUser(deps: Deps, actor: Actor, input: InviteUserRequest): Promise<UserResponse> {
  const alreadyExists = () => fail("user.already_exists", `An account for ${input.email} already exists`);
  try {
    const { user, mail } = await deps.db.transaction(async (tx) => {
      const company = await authorizeCompany(tx, actor, input.companyId, grantMinimum(input.role));
      if (company.status !== "Active") fail("company.not_active", "companyId: the company is archived");
      const existing = await findUserByEmail(tx, input.email);
      if (existing && !(await mayInviteAgain(tx, actor, existing))) alreadyExists();
      const values = {
        email: input.email,
        displayName: input.displayName ?? existing?.displayName ?? null,
        isOperator: false,
        status: "pending" as const,
        companyId: company.id,
        role: input.role,
      };
      const [invited] = existing
        ? await tx.update(u).set(values).where(eq(u.id, existing.id)).returning()
        : await tx
            .insert(u)
            .values({ ...values, createdAt: deps.clock.now() })
            .returning();
      const mail = await createInvitation(tx, deps, invited!);
      await recordAudit(tx, deps.clock, actor, {
        action: "user.invited",
        entityType: "user",
        entityId: invited!.id,
        meta: { email: invited!.email, companyId: company.id, role: input.role },
      });
      return { user: invited!, mail };
    });
    deps.mailer.sendLater(mail);
    return toUserResponse(user);
  } catch (error) {
    if (isUniqueViolation(error, "users_email_key")) alreadyExists();
    throw error;
  }
}

/** Mails a fresh invitation to a pending user; the previous link stops working. */
export async function resendInvitation(deps: Deps, actor: Actor, id: string): Promise<void> {
  const mail = await deps.db.transaction(async (tx) => {
    const user = await authorizeUser(tx, actor, id, "admin");
    if (user.companyId && !actor.isOperator) {
      await authorizeCompany(tx, actor, user.companyId, grantMinimum(user.role), "user.not_found");
    }
    if (user.status !== "pending") fail("user.not_pending", "Only a pending invitation can be sent again");
    const invitation = await createInvitation(tx, deps, user);
    await recordAudit(tx, deps.clock, actor, {
      action: "user.invite_resent",
      entityType: "user",
      entityId: user.id,
      meta: { email: user.email },
    });
    return invitation;
  });
  deps.mailer.sendLater(mail);
}

/**
 * Revokes an account (idempotent): its sessions end, its pending links die and the access tokens that act
 * for it (those it made and those made with them) are revoked, all in the transaction of the change.
 */
export async function deactivateUser(deps: Deps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const user = await authorizeUser(tx, actor, id, "admin");
    if (user.status === "revoked") return;
    if (user.isOperator && user.status === "active") await assertNotLastOperator(tx, user.id, "deactivated");
    const now = deps.clock.now();
    await tx.update(u).set({ status: "revoked" }).where(eq(u.id, id));
    await closeUserSessions(tx, id);
    await tx.delete(tables.oneTimeTokens).where(eq(tables.oneTimeTokens.userId, id));
    const tokens = await tx
      .update(tables.apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(tables.apiTokens.rootUserId, id), isNull(tables.apiTokens.revokedAt)))
      .returning({ id: tables.apiTokens.id });
    await recordAudit(tx, deps.clock, actor, {
      action: "user.deactivated",
      entityType: "user",
      entityId: id,
      meta: { email: user.email, revokedApiTokens: tokens.length },
    });
  });
}
