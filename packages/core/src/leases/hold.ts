import { and, desc, eq } from "drizzle-orm";
import { isDeadlock, tables, type LeaseRow, type LicenseRow, type Tx } from "@licensing/db";
import type { LeaseResponse } from "@licensing/contracts";
import { DAY } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { leaseAnswer, type LeaseSubject } from "./answer.ts";
import { loadFloatingLicense } from "./license.ts";
import { isLeaseLive } from "./live.ts";
import { failPoolFull, livePool, poolFull, refusePool, type PoolRefusal } from "./pool.ts";
import { leaseExpiry } from "./terms.ts";

/** What a renew or a borrow asks of a lease: to be kept `leaseSeconds` more, or until `until`. */
export type Hold = { kind: "renew" } | { kind: "borrow"; until: Date };

type Outcome = { lease: LeaseSubject } | { refused: PoolRefusal };

const MAX_RUNS = 3;

/**
 * A renew or a borrow decided under the license row's lock: a renew the batched statement did not match,
 * and every borrow. In the order a client is refused: the license (unknown, not live, not floating);
 * borrowing not allowed; the lease unknown, or released (410: released by its holder, force-released from
 * the panel, or ended with its activation or license). A live lease is kept; an expired one (its machine
 * slept or lost the network) comes back as the lease's next span if a seat is free, as an acquire would
 * take one, else the pool's refusal.
 */
export async function holdLease(
  deps: Deps,
  input: { licenseKey: string; leaseId: string },
  hold: Hold,
): Promise<LeaseResponse> {
  for (let run = 1; ; run++) {
    let outcome: Outcome;
    try {
      outcome = await deps.db.transaction((tx) => holdLocked(deps, tx, input, hold));
    } catch (error) {
      if (isDeadlock(error) && run < MAX_RUNS) continue;
      throw error;
    }
    if ("refused" in outcome) return failPoolFull(outcome.refused, deps.clock.now());
    return leaseAnswer(deps, deps.db, outcome.lease);
  }
}

async function holdLocked(
  deps: Deps,
  tx: Tx,
  input: { licenseKey: string; leaseId: string },
  hold: Hold,
): Promise<Outcome> {
  const license = await loadFloatingLicense(deps, tx, input.licenseKey, { forUpdate: true });
  if (hold.kind === "borrow" && license.maxBorrowDays === 0) {
    fail("lease.borrow_not_allowed", "The license allows no borrowing (maxBorrowDays is 0)");
  }
  const s = tables.leases;
  const [span] = await tx
    .select()
    .from(s)
    .where(and(eq(s.id, input.leaseId), eq(s.licenseId, license.id)))
    .orderBy(desc(s.span))
    .limit(1);
  if (!span) return fail("lease.not_found", "The license has no such lease");
  if (span.releasedAt !== null) {
    fail("lease.released", "The lease was released; acquire a new one");
  }
  const now = deps.clock.now();
  if (hold.kind === "borrow") checkBorrow(license, hold.until, now);

  const a = tables.activations;
  const [activation] = await tx
    .select({ status: a.status, hwFingerprint: a.hwFingerprint })
    .from(a)
    .where(eq(a.id, span.activationId));
  const subject = (expiresAt: Date): LeaseSubject => ({
    leaseId: span.id,
    expiresAt,
    licenseId: license.id,
    activationId: span.activationId,
    hwFingerprint: activation!.hwFingerprint,
    signingKeyId: license.signingKeyId,
  });

  if (isLeaseLive(span, now)) {
    const expiresAt = nextExpiry(license, span, hold, now);
    await tx
      .update(s)
      .set({ expiresAt, ...(hold.kind === "borrow" ? { borrowedUntil: hold.until } : {}) })
      .where(and(eq(s.id, span.id), eq(s.span, span.span)));
    return { lease: subject(expiresAt) };
  }

  // Expired: the machine came back. Its activation must still be live (a deactivation ended its leases;
  // this one had only expired before it), and hold no newer lease.
  if (activation?.status !== "active") {
    fail("lease.released", "The lease ended with its activation, which was deactivated; activate again");
  }
  const live = await livePool(tx, license.id, now);
  if (live.some((lease) => lease.activationId === span.activationId)) {
    fail("lease.released", "The machine holds a newer lease; this one ended");
  }
  if (poolFull(license, live)) return { refused: await refusePool(tx, deps, license, live, now) };
  const expiresAt = hold.kind === "borrow" ? hold.until : leaseExpiry(license, now);
  await tx.insert(s).values({
    id: span.id,
    span: span.span + 1,
    licenseId: license.id,
    activationId: span.activationId,
    companyId: license.companyId,
    templateId: license.templateId,
    acquiredAt: now,
    expiresAt,
    borrowedUntil: hold.kind === "borrow" ? hold.until : null,
  });
  return { lease: subject(expiresAt) };
}

/** A renew never shortens a lease (a borrowed one keeps its end); a borrow sets it to `until` exactly. */
function nextExpiry(license: LicenseRow, span: LeaseRow, hold: Hold, now: Date): Date {
  if (hold.kind === "borrow") return hold.until;
  const renewed = leaseExpiry(license, now);
  return renewed > span.expiresAt ? renewed : span.expiresAt;
}

/** `until` lies ahead, at most `maxBorrowDays` from now, and not past the license's own expiry. */
function checkBorrow(license: LicenseRow, until: Date, now: Date) {
  if (until <= now) fail("request.invalid", "body.until: must lie in the future");
  const latest = new Date(now.getTime() + license.maxBorrowDays * DAY);
  if (until > latest) {
    fail(
      "lease.borrow_too_long",
      `A lease may be borrowed at most ${license.maxBorrowDays} days ahead, until ${latest.toISOString()}`,
    );
  }
  if (until > license.expiresAt) {
    fail(
      "lease.borrow_too_long",
      `The license expires at ${license.expiresAt.toISOString()}; borrow until then at most`,
    );
  }
}
