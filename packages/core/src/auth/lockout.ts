import type { UserRow } from "@licensing/db";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { admitAttempt, attemptSubject, withdrawAttempt } from "./throttle.ts";

/**
 * Re-authentication of a signed-in user before a sensitive change, throttled as a sign-in from the
 * request's client: a wrong password counts as a failure and is `auth.invalid_password`, naming the
 * request's `field`.
 */
export async function assertCurrentPassword(
  deps: Deps,
  user: Pick<UserRow, "email" | "passwordHash">,
  password: string,
  field: string,
  request: RequestInfo,
) {
  const attempt = await admitAttempt(deps, attemptSubject(user.email, request));
  if (!(await deps.passwords.verify(user.passwordHash, password))) {
    fail("auth.invalid_password", `${field}: the password is wrong`);
  }
  await withdrawAttempt(deps.db, attempt);
}
