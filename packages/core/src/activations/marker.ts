import { eq, sql } from "drizzle-orm";
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

/**
 * The key's facts as a batched statement returns them beside the license's `signing_key_id`, from a join
 * of `signing_keys sk`: its columns for the statement's `$with` declaration, and the facts from its row.
 */
export const keyFactColumns = {
  keyTemplateId: sql<string>`key_template_id`.as("key_template_id"),
  keyStatus: sql<LicenseKeyFacts["status"]>`key_status`.as("key_status"),
  keyIsRoot: sql<boolean>`key_is_root`.as("key_is_root"),
  keyCertificate: sql<string | null>`key_certificate`.as("key_certificate"),
};
export const keyFactsReturning = sql.raw(
  "sk.template_id as key_template_id, sk.status as key_status, sk.is_root as key_is_root, sk.certificate as key_certificate",
);
export const keyFactsOf = (row: {
  signingKeyId: string;
  keyTemplateId: string;
  keyStatus: LicenseKeyFacts["status"];
  keyIsRoot: boolean;
  keyCertificate: string | null;
}): LicenseKeyFacts => ({
  id: row.signingKeyId,
  templateId: row.keyTemplateId,
  status: row.keyStatus,
  isRoot: row.keyIsRoot,
  certificate: row.keyCertificate,
});

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
 * Who signs what the server hands a machine of a license now (its markers and lease tokens): the key that
 * signed the license token, or, once that key is retired (it signs nothing), the template's Active key. `kid`
 * names the signer when it is not the root, and the certificates a program needs come with it: the
 * signer's, and the retired key's ended one (decision 0049).
 */
export async function licenseSigner(deps: Deps, executor: Executor, licenseKey: LicenseKeyFacts) {
  const key =
    licenseKey.status === "Retired" ? await activeSigningKey(executor, licenseKey.templateId) : null;
  const signer = key ?? licenseKey;
  const privateKey =
    deps.signingKeys.cached(signer.id) ??
    deps.signingKeys.privateKey(signer.id, key?.privateKeySealed ?? (await sealedKey(executor, signer.id)));
  const certificate = await certificateOf(deps, executor, signer);
  const licenseCertificate = key ? await certificateOf(deps, executor, licenseKey) : null;
  return {
    privateKey,
    kid: signer.isRoot ? undefined : signer.id,
    certificates: {
      ...(certificate === null ? {} : { certificate }),
      ...(licenseCertificate === null ? {} : { licenseCertificate }),
    },
  };
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
  const { privateKey, kid, certificates } = await licenseSigner(deps, executor, subject.signingKey);
  const now = deps.clock.now();
  const heartbeatToken = signMarker(
    {
      lid: subject.licenseId,
      aid: subject.activationId,
      fp: subject.hwFingerprint,
      iat: unixSeconds(now),
      exp: unixSeconds(new Date(now.getTime() + subject.offlineDays * DAY)),
      ...(kid === undefined ? {} : { kid }),
    },
    privateKey,
  );
  return { heartbeatToken, ...certificates };
}

async function sealedKey(executor: Executor, keyId: string) {
  const [key] = await executor
    .select({ sealed: tables.signingKeys.privateKeySealed })
    .from(tables.signingKeys)
    .where(eq(tables.signingKeys.id, keyId));
  if (!key) throw new Error(`Signing key ${keyId} of a license is missing`);
  return key.sealed;
}
