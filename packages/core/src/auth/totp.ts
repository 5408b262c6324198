import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { tables, type UserRow } from "@licensing/db";
import { generateSecret, generateURI, verify } from "otplib";
import { sha256Hex } from "../crypto/hash.ts";
import { sealedAt } from "../crypto/sealed-columns.ts";
import { recordAudit } from "../audit/record.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { UserActor } from "./actor.ts";
import { assertCurrentPassword } from "./lockout.ts";
import { assertRecentAuthentication } from "./reauthentication.ts";
import { closeUserSessions } from "./sessions.ts";
import { admitAttempt, attemptSubject, withdrawAttempt } from "./throttle.ts";
import { loadUser } from "./users.ts";

const ISSUER = "Licensing Service";
const RECOVERY_CODE_COUNT = 10;

/** Enrolment and enabling need a recent sign-in or the current password (`assertRecentAuthentication`). */
export async function enrollTotp(
  deps: Deps,
  actor: UserActor,
  input: { password?: string | undefined } = {},
) {
  const user = await loadUser(deps.db, actor.userId);
  if (user.totpEnabled) fail("totp.already_enabled", "Two-factor authentication is already enabled");
  await assertRecentAuthentication(deps, actor, user, input.password, "password");
  const secret = generateSecret();
  await deps.db
    .update(tables.users)
    .set({
      totpSecret: deps.secrets.seal(secret, sealedAt(tables.users.totpSecret, user.id)),
      totpLastStep: null,
    })
    .where(eq(tables.users.id, user.id));
  return { secret, otpauthUri: generateURI({ issuer: ISSUER, label: user.email, secret }) };
}

/**
 * Turns 2FA on with a live code. The user's other sessions end (whoever holds one signs in again, now
 * with the second factor), and the owner is told by mail, in case it was not them.
 */
export async function enableTotp(
  deps: Deps,
  actor: UserActor,
  input: { code: string; password?: string | undefined },
) {
  const user = await loadUser(deps.db, actor.userId);
  if (user.totpEnabled) fail("totp.already_enabled", "Two-factor authentication is already enabled");
  if (!user.totpSecret) fail("totp.not_enrolled", "Call /auth/2fa/enroll first");
  await assertRecentAuthentication(deps, actor, user, input.password, "password");
  const attempt = await admitAttempt(deps, attemptSubject(user.email, actor.request));
  const step = await matchTotp(deps, user, input.code);
  if (step === null) return fail("totp.invalid_code", "code: the code is not valid for the enrolled secret");
  await withdrawAttempt(deps.db, attempt);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(tables.users)
      .set({ totpEnabled: true, totpLastStep: step })
      .where(eq(tables.users.id, user.id));
    await tx.delete(tables.recoveryCodes).where(eq(tables.recoveryCodes.userId, user.id));
    await tx
      .insert(tables.recoveryCodes)
      .values(recoveryCodes.map((c) => ({ userId: user.id, codeHash: hashRecoveryCode(c) })));
    await closeUserSessions(tx, user.id, actor.sessionIdHash);
    await recordAudit(
      tx,
      deps.clock,
      { email: user.email, request: actor.request },
      {
        action: "user.totp_enabled",
        entityType: "user",
        entityId: user.id,
      },
    );
  });
  deps.mailer.sendLater(totpEnabledMail(deps, user.email, actor));
  return { recoveryCodes };
}

function totpEnabledMail(deps: Deps, email: string, actor: UserActor) {
  const from = [actor.request.ip, actor.request.userAgent?.slice(0, 200)].filter(Boolean).join(", ");
  return {
    to: email,
    subject: "Two-factor authentication was turned on",
    secret: null,
    text: `Two-factor authentication was turned on for ${email} at ${deps.clock.now().toISOString()}${from ? ` (${from})` : ""}. Signing in now needs a code from the authenticator app that was set up, and your other sessions were signed out.\n\nIf it was not you, someone else can use your account: tell your administrator or the service's operator at once.`,
  };
}

export async function disableTotp(deps: Deps, actor: UserActor, input: { password: string; code: string }) {
  const user = await loadUser(deps.db, actor.userId);
  if (!user.totpEnabled) fail("totp.not_enabled", "Two-factor authentication is not enabled");
  await assertCurrentPassword(deps, user, input.password, "password", actor.request);
  const attempt = await admitAttempt(deps, attemptSubject(user.email, actor.request));
  if (!(await consumeSecondFactor(deps, user, input.code))) {
    fail("totp.invalid_code", "code: the code is neither a current TOTP code nor an unused recovery code");
  }
  await withdrawAttempt(deps.db, attempt);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(tables.users)
      .set({ totpEnabled: false, totpSecret: null, totpLastStep: null })
      .where(eq(tables.users.id, user.id));
    await tx.delete(tables.recoveryCodes).where(eq(tables.recoveryCodes.userId, user.id));
    await recordAudit(
      tx,
      deps.clock,
      { email: user.email, request: actor.request },
      {
        action: "user.totp_disabled",
        entityType: "user",
        entityId: user.id,
      },
    );
  });
}

/**
 * Accepts a live TOTP code not used before (its time step is recorded) or an unused recovery code
 * (marked used). Both checks are atomic, so the same code cannot win twice in a race.
 */
export async function consumeSecondFactor(deps: Deps, user: UserRow, code: string): Promise<boolean> {
  const step = await matchTotp(deps, user, code);
  if (step !== null) {
    const updated = await deps.db
      .update(tables.users)
      .set({ totpLastStep: step })
      .where(and(eq(tables.users.id, user.id), lastStepBefore(user.totpLastStep)))
      .returning({ id: tables.users.id });
    return updated.length === 1;
  }
  const used = await deps.db
    .update(tables.recoveryCodes)
    .set({ usedAt: deps.clock.now() })
    .where(
      and(
        eq(tables.recoveryCodes.userId, user.id),
        eq(tables.recoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(tables.recoveryCodes.usedAt),
      ),
    )
    .returning({ id: tables.recoveryCodes.id });
  return used.length === 1;
}

/** The time step a code matches (±1 step of drift), or null; steps already used never match. */
async function matchTotp(deps: Deps, user: UserRow, code: string): Promise<number | null> {
  if (!user.totpSecret || !/^\d{6}$/.test(code)) return null;
  const secret = deps.secrets
    .open(user.totpSecret, sealedAt(tables.users.totpSecret, user.id))
    .toString("utf8");
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(deps.clock.now().getTime() / 1000),
    epochTolerance: 30,
    ...(user.totpLastStep === null ? {} : { afterTimeStep: user.totpLastStep }),
  });
  // The functional API types HOTP and TOTP results together; only the TOTP one has `timeStep`.
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

// Compare-and-set on the last step: the update only wins if nobody recorded this step meanwhile.
function lastStepBefore(previous: number | null) {
  return previous === null ? isNull(tables.users.totpLastStep) : eq(tables.users.totpLastStep, previous);
}

function newRecoveryCode() {
  const raw = randomBytes(8).toString("hex");
  return `${raw.slice(0, 8)}-${raw.slice(8)}`;
}

const hashRecoveryCode = (code: string) => sha256Hex(code.trim().toLowerCase());
