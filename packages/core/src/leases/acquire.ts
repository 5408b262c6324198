import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { isDeadlock, isUniqueViolation, tables, type Tx } from "@licensing/db";
import type { AcquireLeaseRequest, LeaseResponse } from "@licensing/contracts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { leaseAnswer, type LeaseSubject } from "./answer.ts";
import { loadFloatingLicense, padUnknownKey } from "./license.ts";
import { failPoolFull, livePool, poolFull, refusePool, type PoolRefusal } from "./pool.ts";
import { leaseExpiry } from "./terms.ts";

type Outcome = { lease: LeaseSubject; created: boolean } | { refused: PoolRefusal };

const MAX_RUNS = 3;

/**
 * POST /client/leases (the HMAC is checked by the caller): takes a seat of a floating license for one of
 * its activations, under the license row's lock, so the count of live leases and the new lease cannot race
 * (decision 0048). An activation that holds a live lease gets it back (`created` false). A full pool is
 * refused with its holders and when the first may free.
 */
export function acquireLease(
  deps: Deps,
  input: AcquireLeaseRequest,
): Promise<{ lease: LeaseResponse; created: boolean }> {
  return padUnknownKey(deps, () => acquire(deps, input));
}

async function acquire(deps: Deps, input: AcquireLeaseRequest) {
  for (let run = 1; ; run++) {
    let outcome: Outcome;
    try {
      outcome = await deps.db.transaction((tx) => acquireLocked(deps, tx, input));
    } catch (error) {
      // A deadlock with a concurrent renewal batch (both lock lease rows), or a second open lease of the
      // activation that the lock should have made impossible: run again from a fresh read.
      const raced = isDeadlock(error) || isUniqueViolation(error, "leases_open_by_activation");
      if (raced && run < MAX_RUNS) continue;
      throw error;
    }
    if ("refused" in outcome) return failPoolFull(outcome.refused, deps.clock.now());
    return { lease: await leaseAnswer(deps, deps.db, outcome.lease), created: outcome.created };
  }
}

async function acquireLocked(deps: Deps, tx: Tx, input: AcquireLeaseRequest): Promise<Outcome> {
  const license = await loadFloatingLicense(deps, tx, input.licenseKey, { forUpdate: true });
  const a = tables.activations;
  const [activation] = await tx
    .select({ id: a.id, status: a.status, hwFingerprint: a.hwFingerprint })
    .from(a)
    .where(and(eq(a.id, input.activationId), eq(a.licenseId, license.id)));
  if (activation?.status !== "active") {
    fail("activation.not_found", "The activation is unknown or deactivated; activate again");
  }
  const now = deps.clock.now();
  const subject = (leaseId: string, expiresAt: Date): LeaseSubject => ({
    leaseId,
    expiresAt,
    licenseId: license.id,
    activationId: input.activationId,
    hwFingerprint: activation!.hwFingerprint,
    signingKeyId: license.signingKeyId,
  });
  const live = await livePool(tx, license.id, now);
  const held = live.find((lease) => lease.activationId === input.activationId);
  if (held) return { lease: subject(held.id, held.expiresAt), created: false };
  if (poolFull(license, live)) return { refused: await refusePool(tx, deps, license, live, now) };

  const id = randomUUID();
  const expiresAt = leaseExpiry(license, now);
  await tx.insert(tables.leases).values({
    id,
    span: 1,
    licenseId: license.id,
    activationId: input.activationId,
    companyId: license.companyId,
    templateId: license.templateId,
    acquiredAt: now,
    expiresAt,
  });
  return { lease: subject(id, expiresAt), created: true };
}
