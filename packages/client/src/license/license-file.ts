import { normalizeLicenseKey, parseJsonObject } from "@licensing/protocol";
import { addCertificate, trustedKeys } from "../crypto/key-chain.ts";
import { verifyLicenseToken, type VerificationKeys } from "../crypto/verify.ts";
import type { LicenseProblem } from "../status/derive-status.ts";
import type { TokenClaims, TokenHeader } from "./types.ts";

/**
 * What a `.lic` file holds: the panel's envelope `{licenseKey, token, publicKey, certificate?}`, or a bare
 * token.
 */
export interface LicenseFileContents {
  token: string;
  /** The envelope's key, when there is an envelope. */
  licenseKey: string | null;
  /** The envelope's public key: informative only, never used to verify (spec §4: the configured key is). */
  publicKey: string | null;
  /** The certificate of the token's key, when that key is not the template's root (decision 0049). */
  certificate: string | null;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The token (and envelope fields) in a license file's text, or null when it is neither form. */
export function parseLicenseFile(text: string): LicenseFileContents | null {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (TOKEN_SHAPE.test(trimmed))
    return { token: trimmed, licenseKey: null, publicKey: null, certificate: null };
  const envelope = trimmed.startsWith("{") ? parseJsonObject(trimmed) : null;
  if (!envelope) return null;
  const { token, licenseKey, publicKey, certificate } = envelope;
  if (typeof token !== "string" || !TOKEN_SHAPE.test(token.trim())) return null;
  const string = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    token: token.trim(),
    licenseKey: string(licenseKey),
    publicKey: string(publicKey),
    certificate: string(certificate),
  };
}

/** A license token verified with the configured key. */
export interface VerifiedLicense {
  /** The license key (the token's `lk`): what activation sends and what keys the request HMAC. */
  licenseKey: string;
  token: string;
  header: TokenHeader;
  claims: TokenClaims;
}

export type LicenseCheck = { ok: true; license: VerifiedLicense } | { ok: false; problem: LicenseProblem };

/**
 * Reads and verifies a license file's text (null: no file), through the envelope's certificate when the
 * token's key is not a configured one (the certificate joins `keys`). The key requests are signed with is
 * the one inside the signed claims; an envelope whose `licenseKey` says otherwise has been edited, and is
 * refused.
 */
export async function checkLicenseFile(text: string | null, keys: VerificationKeys): Promise<LicenseCheck> {
  if (text === null) return { ok: false, problem: "license-file-missing" };
  const contents = parseLicenseFile(text);
  if (!contents) return { ok: false, problem: "license-file-unreadable" };
  const trusted = trustedKeys(keys);
  if (contents.certificate !== null) await addCertificate(trusted, contents.certificate);
  const verified = await verifyLicenseToken(contents.token, trusted);
  if (!verified.ok) {
    return {
      ok: false,
      problem: verified.reason === "claims-invalid" ? "license-file-unreadable" : "signature-invalid",
    };
  }
  const { header, claims } = verified.token;
  const licenseKey = normalizeLicenseKey(claims.lk) ?? claims.lk;
  if (contents.licenseKey !== null && normalizeLicenseKey(contents.licenseKey) !== licenseKey) {
    return { ok: false, problem: "license-file-unreadable" };
  }
  return { ok: true, license: { licenseKey, token: contents.token, header, claims } };
}
