import type { BorrowLeaseRequest, LeaseRequest, LeaseResponse } from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { leaseAnswer } from "./answer.ts";
import { holdLease } from "./hold.ts";

/**
 * POST /client/leases/renew (the HMAC is checked by the caller): a live lease is renewed by the batched
 * statement (`LeaseRenewer`); anything else takes the locked path, which names the refusal or brings an
 * expired lease back if a seat is free.
 */
export async function renewLease(deps: Deps, input: LeaseRequest): Promise<LeaseResponse> {
  const startedAt = deps.leases.latency.now();
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  const renewed = licenseKey ? await deps.leases.renewals.renew(input.leaseId, licenseKey) : undefined;
  if (!renewed) return holdLease(deps, input, { kind: "renew" }, startedAt);
  const answer = await leaseAnswer(deps, deps.db, renewed);
  deps.leases.latency.recordSuccess(startedAt);
  return answer;
}

/**
 * POST /client/leases/borrow: the lease is kept until `until` (at most `maxBorrowDays` ahead), for offline
 * work; released early, its seat frees at once.
 */
export function borrowLease(deps: Deps, input: BorrowLeaseRequest): Promise<LeaseResponse> {
  const startedAt = deps.leases.latency.now();
  return holdLease(deps, input, { kind: "borrow", until: new Date(input.until) }, startedAt);
}
