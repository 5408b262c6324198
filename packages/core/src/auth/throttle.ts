import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import { DAY, HOUR, MINUTE, type Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { clientAddressKey } from "./client-address.ts";

/*
 * The sign-in throttle (decision 0036, OWASP ASVS 5.0 V6.1.1, V6.3.1, V6.3.8). Every check of a password
 * or a second-factor code is an attempt on an account from a client:
 * - a client with 10 failures on an account in 15 minutes is refused on that account until the oldest of
 *   them is 15 minutes old (the pair is locked, the account is not);
 * - past 20 failures on an account in an hour, from anywhere, each further attempt waits 1 s after the
 *   latest failure, doubling with each failure up to a minute (a delay, never a lock), except from a
 *   client that signed in to the account within 30 days;
 * - an address without an account is counted and answered exactly as one with.
 */
const PAIR_WINDOW_MS = 15 * MINUTE;
const PAIR_MAX_FAILURES = 10;
const ACCOUNT_WINDOW_MS = HOUR;
const ACCOUNT_FREE_FAILURES = 20;
const ACCOUNT_FIRST_DELAY_MS = 1000;
const ACCOUNT_MAX_DELAY_MS = MINUTE;
const KNOWN_CLIENT_MS = 30 * DAY;
// The first key of the two-key advisory locks that serialise the attempts on one account; any constant
// that no other two-key advisory lock of this service uses.
const ACCOUNT_LOCK_CLASS = 0x51_6e_00_36;

const t = tables.loginAttempts;

/** Who is attempting what: the account (by e-mail address, whether it exists or not) and the client. */
export interface AttemptSubject {
  accountKey: string;
  clientKey: string;
}

export const attemptSubject = (email: string, request: RequestInfo): AttemptSubject => ({
  accountKey: sha256Hex(email.toLowerCase()),
  clientKey: clientAddressKey(request.ip),
});

export interface RecentAttempt {
  clientKey: string;
  succeeded: boolean;
  occurredAt: Date;
}

/** When `clientKey` may next try an account with this recent history; null when it may now. */
export function nextAttemptAt(history: readonly RecentAttempt[], clientKey: string, now: Date): Date | null {
  const at = now.getTime();
  const failedSince = (windowMs: number, client?: string) =>
    history
      .filter((a) => !a.succeeded && a.occurredAt.getTime() > at - windowMs)
      .filter((a) => client === undefined || a.clientKey === client)
      .map((a) => a.occurredAt.getTime())
      .sort((a, b) => a - b);

  let until = 0;
  const pair = failedSince(PAIR_WINDOW_MS, clientKey);
  if (pair.length >= PAIR_MAX_FAILURES) until = pair[pair.length - PAIR_MAX_FAILURES]! + PAIR_WINDOW_MS;

  const known = history.some(
    (a) => a.succeeded && a.clientKey === clientKey && a.occurredAt.getTime() > at - KNOWN_CLIENT_MS,
  );
  const account = failedSince(ACCOUNT_WINDOW_MS);
  if (!known && account.length >= ACCOUNT_FREE_FAILURES) {
    const doublings = account.length - ACCOUNT_FREE_FAILURES;
    const delay = Math.min(ACCOUNT_FIRST_DELAY_MS * 2 ** doublings, ACCOUNT_MAX_DELAY_MS);
    until = Math.max(until, account[account.length - 1]! + delay);
  }
  return until > at ? new Date(until) : null;
}

/** An attempt let through: it counts as a failure until `withdrawAttempt` or a completed sign-in. */
export interface AdmittedAttempt {
  id: string;
}

/**
 * Refuses the attempt with 429 `auth.too_many_attempts` and its Retry-After, or records it as a failure
 * before the password or code is checked. Deciding and recording happen under a lock on the account, so
 * attempts running in parallel (a tRPC batch, concurrent requests) are admitted one after another and
 * never more than the limits allow; the check itself runs after, outside any transaction.
 */
export async function admitAttempt(deps: Deps, subject: AttemptSubject): Promise<AdmittedAttempt> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_CLASS}, hashtext(${subject.accountKey}))`,
    );
    const history = await tx
      .select({ clientKey: t.clientKey, succeeded: t.succeeded, occurredAt: t.occurredAt })
      .from(t)
      .where(
        and(
          eq(t.accountKey, subject.accountKey),
          or(
            gt(t.occurredAt, new Date(now.getTime() - ACCOUNT_WINDOW_MS)),
            and(
              eq(t.succeeded, true),
              eq(t.clientKey, subject.clientKey),
              gt(t.occurredAt, new Date(now.getTime() - KNOWN_CLIENT_MS)),
            ),
          ),
        ),
      );
    const retryAt = nextAttemptAt(history, subject.clientKey, now);
    if (retryAt) {
      const seconds = Math.ceil((retryAt.getTime() - now.getTime()) / 1000);
      fail("auth.too_many_attempts", `Too many failed attempts; try again in ${seconds} seconds`, {
        retryAfterSeconds: seconds,
      });
    }
    const [row] = await tx
      .insert(t)
      .values({ ...subject, succeeded: false, occurredAt: now })
      .returning({ id: t.id });
    return { id: row!.id };
  });
}

/** The password or code of an admitted attempt was right: the attempt is no failure. */
export async function withdrawAttempt(executor: Executor, attempt: AdmittedAttempt) {
  await executor.delete(t).where(eq(t.id, attempt.id));
}

/**
 * A sign-in completed from this client: its failures on the account are forgotten (not the other clients'
 * ones), and the client is known to the account for 30 days.
 */
export async function recordSignIn(executor: Executor, clock: Clock, subject: AttemptSubject) {
  await executor
    .delete(t)
    .where(and(eq(t.accountKey, subject.accountKey), eq(t.clientKey, subject.clientKey)));
  await executor.insert(t).values({ ...subject, succeeded: true, occurredAt: clock.now() });
}

/** Forgets failures past every window and sign-ins past the known-client period; returns how many. */
export async function purgeLoginAttempts(deps: Pick<Deps, "db" | "clock">): Promise<number> {
  const now = deps.clock.now().getTime();
  const purged = await deps.db
    .delete(t)
    .where(
      or(
        and(eq(t.succeeded, false), lt(t.occurredAt, new Date(now - ACCOUNT_WINDOW_MS))),
        lt(t.occurredAt, new Date(now - KNOWN_CLIENT_MS)),
      ),
    )
    .returning({ id: t.id });
  return purged.length;
}
