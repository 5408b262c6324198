import type { BorrowLeaseRequest, LeaseRequest, LeaseResponse } from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { leaseAnswer } from "./answer.ts";
import { holdLease } from "./hold.ts";
import { padUnknownKey } from "./license.ts";

/**
 * POST /client/leases/renew (the HMAC is checked by the caller): a live lease is renewed by the batched
 * statement (`LeaseRenewer`); anything else takes the locked path, which names the refusal or brings an
 * expired lease back if a seat is free.
 */
export function renewLease(deps: Deps, input: LeaseRequest): Promise<LeaseResponse> {
  return padUnknownKey(deps, async () => {
    const licenseKey = normalizeLicenseKey(input.licenseKey);
    const renewed = licenseKey ? await deps.leases.renewals.renew(input.leaseId, licenseKey) : undefined;
    if (!renewed) return holdLease(deps, input, { kind: "renew" });
    return leaseAnswer(deps, deps.db, renewed, renewed.signingKey);
  });
}

/**
 * POST /client/leases/borrow: the lease is kept until `until` (at most `maxBorrowDays` ahead), for offline
 * work; released early, its seat frees at once.
 */
export function borrowLease(deps: Deps, input: BorrowLeaseRequest): Promise<LeaseResponse> {
  return padUnknownKey(deps, () => holdLease(deps, input, { kind: "borrow", until: new Date(input.until) }));
}
