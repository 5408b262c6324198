import { eq } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import { DAY } from "../clock.ts";
import { unixSeconds } from "../crypto/license-token.ts";
import { signMarker } from "../crypto/marker.ts";
import type { Deps } from "../deps.ts";

export interface MarkerSubject {
  licenseId: string;
  activationId: string;
  hwFingerprint: string | null;
  offlineDays: number;
  signingKeyId: string;
}

/**
 * The offline marker (heartbeatToken) for an activation: valid for the license's offline days from now,
 * signed with the key that signed the license token, so the SDK verifies it with the key it has.
 */
export async function issueMarker(deps: Deps, executor: Executor, subject: MarkerSubject): Promise<string> {
  const privateKey = await licensePrivateKey(deps, executor, subject.signingKeyId);
  const now = deps.clock.now();
  return signMarker(
    {
      lid: subject.licenseId,
      aid: subject.activationId,
      fp: subject.hwFingerprint,
      iat: unixSeconds(now),
      exp: unixSeconds(new Date(now.getTime() + subject.offlineDays * DAY)),
    },
    privateKey,
  );
}

/** The private key that signed a license's token (it signs the license's markers and lease tokens too). */
export async function licensePrivateKey(deps: Deps, executor: Executor, keyId: string) {
  return deps.signingKeys.cached(keyId) ?? (await loadKey(deps, executor, keyId));
}

async function loadKey(deps: Deps, executor: Executor, keyId: string) {
  const [key] = await executor
    .select({ sealed: tables.signingKeys.privateKeySealed })
    .from(tables.signingKeys)
    .where(eq(tables.signingKeys.id, keyId));
  // A license row references its key (foreign key), so a missing key is a broken database.
  if (!key) throw new Error(`Signing key ${keyId} of a license is missing`);
  return deps.signingKeys.privateKey(keyId, key.sealed);
}
