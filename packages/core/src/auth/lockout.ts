import { and, count, eq, gt } from "drizzle-orm";
import { tables, type UserRow } from "@licensing/db";
import { MINUTE } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";

const WINDOW_MS = 15 * MINUTE;
const MAX_FAILURES = 10;

/** Refuses any further attempt on an account with more than 10 failures in 15 minutes, whatever the IP. */
export async function assertNotLockedOut(deps: Deps, userId: string) {
  const since = new Date(deps.clock.now().getTime() - WINDOW_MS);
  const [row] = await deps.db
    .select({ n: count() })
    .from(tables.authFailures)
    .where(and(eq(tables.authFailures.userId, userId), gt(tables.authFailures.occurredAt, since)));
  if ((row?.n ?? 0) >= MAX_FAILURES) {
    fail("auth.too_many_attempts", "Too many failed attempts for this account; try again in 15 minutes");
  }
}

export async function recordAuthFailure(deps: Deps, userId: string) {
  await deps.db.insert(tables.authFailures).values({ userId, occurredAt: deps.clock.now() });
}

/**
 * Re-authentication of a signed-in user before a sensitive change: refused while locked out, and a wrong
 * password counts as a failure and is `auth.invalid_password`, naming the request's `field`.
 */
export async function assertCurrentPassword(
  deps: Deps,
  user: Pick<UserRow, "id" | "passwordHash">,
  password: string,
  field: string,
) {
  await assertNotLockedOut(deps, user.id);
  if (!(await deps.passwords.verify(user.passwordHash, password))) {
    await recordAuthFailure(deps, user.id);
    fail("auth.invalid_password", `${field}: the password is wrong`);
  }
}

export async function clearAuthFailures(deps: Deps, userId: string) {
  await deps.db.delete(tables.authFailures).where(eq(tables.authFailures.userId, userId));
}
