import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { tables, type LicenseRow, type Tx } from "@licensing/db";
import type { LeaseHolder } from "@licensing/contracts";
import { HOUR } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { publishEvents } from "../outbox/publish.ts";
import { leaseLiveCondition, openCondition } from "./live.ts";

const s = tables.leases;
const a = tables.activations;

/** A live lease of the pool, with its holder's machine name. */
export type PoolLease = typeof s.$inferSelect & { machineName: string | null };

/**
 * The license's live leases, read under the license row's lock (the caller holds it). First the open spans
 * that have expired are marked lapsed: an acquire is about to count their seats free, and a renew whose
 * `now` was read a moment earlier must not extend one of them afterwards (its UPDATE requires `not
 * lapsed`, and waits for this one's row lock). The count is read in a second statement, so it sees a
 * renew that committed while the first waited.
 */
export async function livePool(tx: Tx, licenseId: string, now: Date): Promise<PoolLease[]> {
  await tx
    .update(s)
    .set({ lapsed: true })
    .where(and(eq(s.licenseId, licenseId), openCondition(), lte(s.expiresAt, now)));
  const rows = await tx
    .select({ lease: s, machineName: a.machineName })
    .from(s)
    .innerJoin(a, eq(a.id, s.activationId))
    .where(and(eq(s.licenseId, licenseId), leaseLiveCondition(now)))
    .orderBy(asc(s.expiresAt), asc(s.id));
  return rows.map((r) => ({ ...r.lease, machineName: r.machineName }));
}

export const poolFull = (license: Pick<LicenseRow, "maxSeats">, live: PoolLease[]) =>
  license.maxSeats !== null && live.length >= license.maxSeats;

/** What a refusal for a full pool tells the client: who holds the seats, and when the first frees. */
export interface PoolRefusal {
  maxSeats: number;
  holders: LeaseHolder[];
  retryAt: Date;
}

/**
 * A full pool's refusal, in the caller's transaction: publishes `license.seats_exhausted` unless it was
 * published within the hour (the vendor's upsell signal, not a stream of refusals), and returns what to
 * answer. The caller answers it after the transaction commits, so the event is not rolled back with it.
 */
export async function refusePool(
  tx: Tx,
  deps: Deps,
  license: LicenseRow,
  live: PoolLease[],
  now: Date,
): Promise<PoolRefusal> {
  const maxSeats = license.maxSeats!;
  const published = license.seatsExhaustedPublishedAt;
  if (published === null || published.getTime() <= now.getTime() - HOUR) {
    await tx
      .update(tables.licenses)
      .set({ seatsExhaustedPublishedAt: now })
      .where(eq(tables.licenses.id, license.id));
    await publishEvents(tx, deps.clock, [
      { type: "license.seats_exhausted", data: { licenseId: license.id, maxSeats } },
    ]);
  }
  return {
    maxSeats,
    holders: live.map((lease) => ({
      machineName: lease.machineName,
      acquiredAt: lease.acquiredAt.toISOString(),
      expiresAt: lease.expiresAt.toISOString(),
    })),
    // The pool is full, so it holds at least one lease; the soonest to expire is first.
    retryAt: live[0]!.expiresAt,
  };
}

/** Answers a refusal: 409 `lease.seats_exhausted` with the holders, `retryAt` and `Retry-After`. */
export function failPoolFull(refusal: PoolRefusal, now: Date): never {
  const seconds = Math.max(1, Math.ceil((refusal.retryAt.getTime() - now.getTime()) / 1000));
  return fail(
    "lease.seats_exhausted",
    `All ${refusal.maxSeats} seats of the license are leased; the first may free at ${refusal.retryAt.toISOString()}`,
    {
      retryAfterSeconds: seconds,
      details: { holders: refusal.holders, retryAt: refusal.retryAt.toISOString() },
    },
  );
}

/** Ends the live leases of activations or of a license, in the caller's transaction (decision 0048). */
export async function endLeases(
  tx: Tx,
  now: Date,
  of: { licenseId: string } | { activationIds: string[] },
  reason: string,
): Promise<number> {
  const owner =
    "licenseId" in of
      ? eq(s.licenseId, of.licenseId)
      : of.activationIds.length > 0
        ? inArray(s.activationId, of.activationIds)
        : null;
  if (!owner) return 0;
  const ended = await tx
    .update(s)
    .set({ releasedAt: now, releaseReason: reason })
    .where(and(owner, leaseLiveCondition(now)))
    .returning({ id: s.id });
  return ended.length;
}
