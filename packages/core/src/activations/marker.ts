import { eq } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import { DAY } from "../clock.ts";
import { unixSeconds } from "../crypto/license-token.ts";
import { signMarker } from "../crypto/marker.ts";
import type { Deps } from "../deps.ts";
import { certificateOf, type ChainKey } from "../templates/key-chain.ts";
import { activeSigningKey } from "../templates/signing-keys.ts";

/** The key that signed a license's token, as the heartbeat statement reads it beside the license. */
export interface LicenseKeyFacts extends ChainKey {
  status: "Active" | "Inactive" | "Retired";
}

export interface MarkerSubject {
  licenseId: string;
  activationId: string;
  hwFingerprint: string | null;
  offlineDays: number;
  signingKey: LicenseKeyFacts;
}

/** A marker with the certificates a program needs to verify it (decision 0049). */
export interface IssuedMarker {
  heartbeatToken: string;
  /** The certificate of the marker's key, when that key is not the root. */
  certificate?: string;
  /** The ended certificate of the license's retired key, so the program refuses what it signs afterwards. */
  licenseCertificate?: string;
}

/** The facts of the key that signed a license's token, read by id (activation reads them so). */
export async function licenseKeyFacts(executor: Executor, keyId: string): Promise<LicenseKeyFacts> {
  const k = tables.signingKeys;
  const [key] = await executor
    .select({
      id: k.id,
      templateId: k.templateId,
      status: k.status,
      isRoot: k.isRoot,
      certificate: k.certificate,
    })
    .from(k)
    .where(eq(k.id, keyId));
  // A license row references its key (foreign key), so a missing key is a broken database.
  if (!key) throw new Error(`Signing key ${keyId} of a license is missing`);
  return key;
}

/**
 * The offline marker (heartbeatToken) for an activation: valid for the license's offline days from now,
 * signed with the key that signed the license token, so a program that knows that key needs nothing more.
 * A retired key signs nothing: the template's Active key signs instead, the marker names it (`kid`) and
 * its certificate comes with it, with the retired key's ended one.
 */
export async function issueMarker(
  deps: Deps,
  executor: Executor,
  subject: MarkerSubject,
): Promise<IssuedMarker> {
  const licenseKey = subject.signingKey;
  const key =
    licenseKey.status === "Retired" ? await activeSigningKey(executor, licenseKey.templateId) : null;
  const signer = key ?? licenseKey;
  const privateKey =
    deps.signingKeys.cached(signer.id) ??
    deps.signingKeys.privateKey(signer.id, key?.privateKeySealed ?? (await sealedKey(executor, signer.id)));
  const certificate = await certificateOf(deps, executor, signer);
  const licenseCertificate = key ? await certificateOf(deps, executor, licenseKey) : null;
  const now = deps.clock.now();
  const heartbeatToken = signMarker(
    {
      lid: subject.licenseId,
      aid: subject.activationId,
      fp: subject.hwFingerprint,
      iat: unixSeconds(now),
      exp: unixSeconds(new Date(now.getTime() + subject.offlineDays * DAY)),
      ...(signer.isRoot ? {} : { kid: signer.id }),
    },
    privateKey,
  );
  return {
    heartbeatToken,
    ...(certificate === null ? {} : { certificate }),
    ...(licenseCertificate === null ? {} : { licenseCertificate }),
  };
}

/**
 * The private key that signed a license's token, which signs its lease tokens (decision 0048). Unlike a
 * marker's signer it is not replaced once retired: the lease token has no `kid` yet (see decision 0048).
 */
export async function licensePrivateKey(deps: Deps, executor: Executor, keyId: string) {
  return (
    deps.signingKeys.cached(keyId) ?? deps.signingKeys.privateKey(keyId, await sealedKey(executor, keyId))
  );
}

async function sealedKey(executor: Executor, keyId: string) {
  const [key] = await executor
    .select({ sealed: tables.signingKeys.privateKeySealed })
    .from(tables.signingKeys)
    .where(eq(tables.signingKeys.id, keyId));
  if (!key) throw new Error(`Signing key ${keyId} of a license is missing`);
  return key.sealed;
}
