import { eq } from "drizzle-orm";
import { Email } from "@licensing/contracts";
import { tables } from "@licensing/db";
import { recordAudit } from "../audit/record.ts";
import { HOUR } from "../clock.ts";
import { MIN_PASSWORD_LENGTH } from "../crypto/password.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import type { UserActor } from "./actor.ts";
import { assertCurrentPassword } from "./lockout.ts";
import { consumeOneTimeToken, issueOneTimeToken } from "./one-time-tokens.ts";
import { closeUserSessions } from "./sessions.ts";
import { findUserByEmail, loadUser } from "./users.ts";

const RESET_TTL_MS = HOUR;

export function assertPasswordStrength(password: string, field: string) {
  if (password.length < MIN_PASSWORD_LENGTH) {
    fail("auth.password_too_short", `${field}: must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

/**
 * Always succeeds. The mail leaves in the background, so the answer takes as long for an unknown
 * address as for a known one (one indexed lookup, plus one small insert when the account exists). A
 * malformed address cannot be an account's (every account's address passed the same check), so it is
 * answered like an unknown one without a lookup.
 */
export async function forgotPassword(deps: Deps, input: { email: string }, request: RequestInfo) {
  const email = Email.safeParse(input.email);
  if (!email.success) return;
  const user = await findUserByEmail(deps.db, email.data);
  if (user?.status !== "active") return;
  const { token } = await deps.db.transaction(async (tx) => {
    const issued = await issueOneTimeToken(tx, deps.clock, {
      kind: "password_reset",
      userId: user.id,
      ttlMs: RESET_TTL_MS,
    });
    await recordAudit(
      tx,
      deps.clock,
      { email: user.email, request },
      {
        action: "user.password_reset_requested",
        entityType: "user",
        entityId: user.id,
      },
    );
    return issued;
  });
  deps.mailer.sendLater({
    to: user.email,
    subject: "Reset your password",
    text: `Someone asked to reset the password of ${user.email}.\n\nSet a new one within an hour:\n${deps.config.publicBaseUrl}/reset-password?token=${token}\n\nIf it was not you, ignore this mail.`,
    secret: token,
  });
}

export async function resetPassword(
  deps: Deps,
  input: { token: string; newPassword: string },
  request: RequestInfo,
) {
  assertPasswordStrength(input.newPassword, "newPassword");
  const passwordHash = await deps.passwords.hash(input.newPassword);
  await deps.db.transaction(async (tx) => {
    const token = await consumeOneTimeToken(tx, deps.clock, "password_reset", input.token);
    if (!token)
      return fail("auth.reset_token_invalid", "token: the reset token is unknown, expired or already used");
    const user = await loadUser(tx, token.userId);
    await tx.update(tables.users).set({ passwordHash }).where(eq(tables.users.id, user.id));
    await closeUserSessions(tx, user.id);
    await recordAudit(
      tx,
      deps.clock,
      { email: user.email, request },
      {
        action: "user.password_reset",
        entityType: "user",
        entityId: user.id,
      },
    );
  });
}

export async function changePassword(
  deps: Deps,
  actor: UserActor,
  input: { currentPassword: string; newPassword: string },
) {
  const user = await loadUser(deps.db, actor.userId);
  await assertCurrentPassword(deps, user, input.currentPassword, "currentPassword", actor.request);
  assertPasswordStrength(input.newPassword, "newPassword");
  const passwordHash = await deps.passwords.hash(input.newPassword);
  await deps.db.transaction(async (tx) => {
    await tx.update(tables.users).set({ passwordHash }).where(eq(tables.users.id, user.id));
    await closeUserSessions(tx, user.id, actor.sessionIdHash);
    await recordAudit(
      tx,
      deps.clock,
      { email: user.email, request: actor.request },
      {
        action: "user.password_changed",
        entityType: "user",
        entityId: user.id,
      },
    );
  });
}
