import { asc, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { OperatorUserResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import { createInvitation } from "../auth/invitations.ts";
import { closeUserSessions } from "../auth/sessions.ts";
import { findUserByEmail, loadUser, toOperatorUser } from "../auth/users.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { assertOperator } from "../policy/index.ts";
import { assertNotLastOperator } from "./last-operator.ts";

export async function listOperators(deps: Deps, actor: Actor): Promise<OperatorUserResponse[]> {
  assertOperator(actor);
  const rows = await deps.reads
    .select()
    .from(tables.users)
    .where(eq(tables.users.isOperator, true))
    .orderBy(asc(tables.users.email));
  return rows.map(toOperatorUser);
}

export async function inviteOperator(
  deps: Deps,
  actor: Actor,
  input: { email: string; displayName?: string | undefined },
): Promise<OperatorUserResponse> {
  assertOperator(actor);
  const { user, mail } = await deps.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, input.email);
    if (existing?.status === "active") {
      return fail("user.already_exists", `An active account for ${input.email} already exists`);
    }
    // A pending or revoked account is invited again as an operator (revoked → pending).
    const values = {
      email: input.email,
      displayName: input.displayName ?? existing?.displayName ?? null,
      isOperator: true,
      status: "pending" as const,
      companyId: null,
      role: null,
    };
    const [invited] = existing
      ? await tx.update(tables.users).set(values).where(eq(tables.users.id, existing.id)).returning()
      : await tx
          .insert(tables.users)
          .values({ ...values, createdAt: deps.clock.now() })
          .returning();
    const mail = await createInvitation(tx, deps, invited!);
    await recordAudit(tx, deps.clock, actor, {
      action: "operator.invited",
      entityType: "user",
      entityId: invited!.id,
      meta: { email: invited!.email },
    });
    return { user: invited!, mail };
  });
  deps.mailer.sendLater(mail);
  return toOperatorUser(user);
}

export async function setOperator(deps: Deps, actor: Actor, userId: string, isOperator: boolean) {
  assertOperator(actor);
  const user = await deps.db.transaction(async (tx) => {
    const target = await loadUser(tx, userId);
    if (!isOperator && target.isOperator) await assertNotLastOperator(tx, userId, "demoted");
    const [updated] = await tx
      .update(tables.users)
      .set({ isOperator })
      .where(eq(tables.users.id, userId))
      .returning();
    // Rights shrink at once: sessions opened as operator end with the demotion.
    if (!isOperator && target.isOperator) await closeUserSessions(tx, userId);
    await recordAudit(tx, deps.clock, actor, {
      action: isOperator ? "operator.promoted" : "operator.demoted",
      entityType: "user",
      entityId: userId,
    });
    return updated!;
  });
  return toOperatorUser(user);
}
