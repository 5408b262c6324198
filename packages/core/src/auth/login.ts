import { eq } from "drizzle-orm";
import { tables, type UserRow } from "@licensing/db";
import type { AuthUserResponse, LoginResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import { MINUTE } from "../clock.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { consumeOneTimeToken, issueOneTimeToken, peekOneTimeToken } from "./one-time-tokens.ts";
import { openSession } from "./sessions.ts";
import { admitAttempt, attemptSubject, recordSignIn, withdrawAttempt } from "./throttle.ts";
import { consumeSecondFactor } from "./totp.ts";
import { findUserByEmail, loadUser, toAuthUser } from "./users.ts";

const TICKET_TTL_MS = 5 * MINUTE;

export interface LoginResult {
  response: LoginResponse;
  /** Present when a session was opened: the raw id for the cookie. */
  sessionId?: string;
}

export async function login(
  deps: Deps,
  input: { email: string; password: string },
  request: RequestInfo,
): Promise<LoginResult> {
  // Throttled by e-mail address before the account is looked up: an address without an account is
  // counted, refused and answered as one with (decision 0036).
  const attempt = await admitAttempt(deps, attemptSubject(input.email, request));
  const user = await findUserByEmail(deps.db, input.email);
  const usable = user?.status === "active" ? user : undefined;
  // passwords.verify hashes against a dummy when there is no account, so both paths cost the same.
  const ok = await deps.passwords.verify(usable?.passwordHash ?? null, input.password);
  if (!usable || !ok) return fail("auth.invalid_credentials", "The email or password is wrong");
  await withdrawAttempt(deps.db, attempt);
  const account = usable;

  if (account.totpEnabled) {
    const { token } = await issueOneTimeToken(deps.db, deps.clock, {
      kind: "login_ticket",
      userId: account.id,
      ttlMs: TICKET_TTL_MS,
    });
    return { response: { twoFactorRequired: true, ticket: token, user: null } };
  }
  const sessionId = await completeLogin(deps, account, request, "password");
  return { response: { twoFactorRequired: false, ticket: null, user: toAuthUser(account) }, sessionId };
}

export async function loginWithSecondFactor(
  deps: Deps,
  input: { ticket: string; code: string },
  request: RequestInfo,
): Promise<{ user: AuthUserResponse; sessionId: string }> {
  const ticket = await peekOneTimeToken(deps.db, deps.clock, "login_ticket", input.ticket);
  if (!ticket) return fail("auth.invalid_ticket", "ticket: the ticket is unknown, expired or already used");
  const user = await loadUser(deps.db, ticket.userId);
  if (user.status !== "active") fail("auth.invalid_ticket", "ticket: the account is no longer active");
  const attempt = await admitAttempt(deps, attemptSubject(user.email, request));
  if (!(await consumeSecondFactor(deps, user, input.code))) {
    fail("auth.invalid_code", "code: the code is neither a current TOTP code nor an unused recovery code");
  }
  await withdrawAttempt(deps.db, attempt);
  // The ticket works once: a racing second request with a valid code loses here.
  if (!(await consumeOneTimeToken(deps.db, deps.clock, "login_ticket", input.ticket))) {
    fail("auth.invalid_ticket", "ticket: the ticket is unknown, expired or already used");
  }
  const sessionId = await completeLogin(deps, user, request, "totp");
  return { user: toAuthUser(user), sessionId };
}

/** Opens the session of a user who has passed every factor. */
export async function completeLogin(deps: Deps, user: UserRow, request: RequestInfo, method: string) {
  return deps.db.transaction(async (tx) => {
    await recordSignIn(tx, deps.clock, attemptSubject(user.email, request));
    const sessionId = await openSession(tx, deps, user.id, request);
    await tx.update(tables.users).set({ lastLoginAt: deps.clock.now() }).where(eq(tables.users.id, user.id));
    await recordAudit(
      tx,
      deps.clock,
      { email: user.email, request },
      {
        action: "auth.login",
        entityType: "user",
        entityId: user.id,
        meta: { method },
      },
    );
    return sessionId;
  });
}
