import type { Executor } from "@licensing/db";
import type { LeaseResponse } from "@licensing/contracts";
import { licenseKeyFacts, licenseSigner, type LicenseKeyFacts } from "../activations/marker.ts";
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

/**
 * The client API's answer for a lease: its expiry, when to renew, and its token signed now by the key that
 * signs the license's markers, through the key chain as a marker is (`kid`, and the certificates with the
 * answer: decision 0049), so a retired key signs no lease token either. The renewal batch reads the key's
 * facts with the lease (`signingKey`); the locked paths leave them to be read here.
 */
export async function leaseAnswer(
  deps: Deps,
  executor: Executor,
  lease: LeaseSubject,
  signingKey?: LicenseKeyFacts,
): Promise<LeaseResponse> {
  const now = deps.clock.now();
  const signer = await licenseSigner(
    deps,
    executor,
    signingKey ?? (await licenseKeyFacts(executor, lease.signingKeyId)),
  );
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
        ...(signer.kid === undefined ? {} : { kid: signer.kid }),
      },
      signer.privateKey,
    ),
    ...signer.certificates,
  };
}
