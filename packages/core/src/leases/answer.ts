import type { Executor } from "@licensing/db";
import type { LeaseResponse } from "@licensing/contracts";
import { licensePrivateKey } from "../activations/marker.ts";
import { unixSeconds } from "../crypto/license-token.ts";
import { signLeaseToken } from "../crypto/lease-token.ts";
import type { Deps } from "../deps.ts";
import { renewAfterSeconds } from "./terms.ts";

/** What a lease answer is made of: the lease, and what its token names and is signed with. */
export interface LeaseSubject {
  leaseId: string;
  expiresAt: Date;
  licenseId: string;
  activationId: string;
  hwFingerprint: string | null;
  signingKeyId: string;
}

/** The client API's answer for a lease: its expiry, when to renew, and its token signed now. */
export async function leaseAnswer(
  deps: Deps,
  executor: Executor,
  lease: LeaseSubject,
): Promise<LeaseResponse> {
  const now = deps.clock.now();
  const privateKey = await licensePrivateKey(deps, executor, lease.signingKeyId);
  return {
    leaseId: lease.leaseId,
    expiresAt: lease.expiresAt.toISOString(),
    renewAfterSeconds: renewAfterSeconds(lease.expiresAt, now),
    leaseToken: signLeaseToken(
      {
        typ: "lease",
        lsid: lease.leaseId,
        lid: lease.licenseId,
        aid: lease.activationId,
        fp: lease.hwFingerprint,
        iat: unixSeconds(now),
        exp: unixSeconds(lease.expiresAt),
      },
      privateKey,
    ),
  };
}
