import { eq } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import type { InvitePreviewResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import { DAY } from "../clock.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import type { Mail } from "../mail/mailer.ts";
import { completeLogin } from "./login.ts";
import { consumeOneTimeToken, issueOneTimeToken, peekOneTimeToken } from "./one-time-tokens.ts";
import { assertPasswordStrength } from "./passwords.ts";
import { loadUser, toAuthUser } from "./users.ts";

export const INVITATION_TTL_MS = 7 * DAY;

/**
 * Issues a fresh invitation token for a pending user (an older one stops working) and returns the mail
 * to send once the surrounding transaction has committed.
 */
export async function createInvitation(
  executor: Executor,
  deps: Deps,
  user: { id: string; email: string },
): Promise<Mail> {
  const { token, expiresAt } = await issueOneTimeToken(executor, deps.clock, {
    kind: "invite",
    userId: user.id,
    ttlMs: INVITATION_TTL_MS,
  });
  return {
    to: user.email,
    subject: "You are invited to the licensing service",
    text: `You have been invited to the licensing service as ${user.email}.\n\nChoose a password to accept (the link works until ${expiresAt.toISOString()}):\n${deps.config.publicBaseUrl}/accept-invite?token=${token}\n`,
    secret: token,
  };
}

async function pendingInvitee(deps: Deps, token: string) {
  const row = await peekOneTimeToken(deps.db, deps.clock, "invite", token);
  const user = row && (await loadUser(deps.db, row.userId));
  if (!row || !user || user.status !== "pending") {
    return fail("invitation.not_found", "The invitation is unknown, expired or already accepted");
  }
  return { row, user };
}

export async function previewInvitation(deps: Deps, token: string): Promise<InvitePreviewResponse> {
  const { row, user } = await pendingInvitee(deps, token);
  let companyName: string | null = null;
  if (user.companyId) {
    const [company] = await deps.db
      .select({ name: tables.companies.name })
      .from(tables.companies)
      .where(eq(tables.companies.id, user.companyId));
    companyName = company?.name ?? null;
  }
  return {
    email: user.email,
    companyName,
    role: user.isOperator ? "operator" : (user.role ?? "viewer"),
    expiresAt: row.expiresAt.toISOString(),
  };
}

export async function acceptInvitation(
  deps: Deps,
  input: { token: string; password: string },
  request: RequestInfo,
) {
  assertPasswordStrength(input.password, "password");
  await pendingInvitee(deps, input.token);
  const passwordHash = await deps.passwords.hash(input.password);
  const user = await deps.db.transaction(async (tx) => {
    const row = await consumeOneTimeToken(tx, deps.clock, "invite", input.token);
    if (!row) return fail("invitation.not_found", "The invitation is unknown, expired or already accepted");
    const [accepted] = await tx
      .update(tables.users)
      .set({ passwordHash, status: "active" })
      .where(eq(tables.users.id, row.userId))
      .returning();
    await recordAudit(
      tx,
      deps.clock,
      { email: accepted!.email, request },
      {
        action: "user.invitation_accepted",
        entityType: "user",
        entityId: accepted!.id,
      },
    );
    return accepted!;
  });
  const sessionId = await completeLogin(deps, user, request, "invitation");
  return { user: toAuthUser(user), sessionId };
}
