import { normalizeLicenseKey, parseJsonObject } from "@licensing/protocol";
import { verifyLicenseToken } from "../crypto/verify.ts";
import type { LicenseProblem } from "../status/derive-status.ts";
import type { TokenClaims, TokenHeader } from "./types.ts";

/** What a `.lic` file holds: the panel's envelope `{licenseKey, token, publicKey}`, or a bare token. */
export interface LicenseFileContents {
  token: string;
  /** The envelope's key, when there is an envelope. */
  licenseKey: string | null;
  /** The envelope's public key: informative only, never used to verify (spec §4: the configured key is). */
  publicKey: string | null;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The token (and envelope fields) in a license file's text, or null when it is neither form. */
export function parseLicenseFile(text: string): LicenseFileContents | null {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (TOKEN_SHAPE.test(trimmed)) return { token: trimmed, licenseKey: null, publicKey: null };
  const envelope = trimmed.startsWith("{") ? parseJsonObject(trimmed) : null;
  if (!envelope) return null;
  const { token, licenseKey, publicKey } = envelope;
  if (typeof token !== "string" || !TOKEN_SHAPE.test(token.trim())) return null;
  return {
    token: token.trim(),
    licenseKey: typeof licenseKey === "string" ? licenseKey : null,
    publicKey: typeof publicKey === "string" ? publicKey : null,
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
 * Reads and verifies a license file's text (null: no file). The key requests are signed with is the one
 * inside the signed claims; an envelope whose `licenseKey` says otherwise has been edited, and is refused.
 */
export async function checkLicenseFile(text: string | null, publicKey: Uint8Array): Promise<LicenseCheck> {
  if (text === null) return { ok: false, problem: "license-file-missing" };
  const contents = parseLicenseFile(text);
  if (!contents) return { ok: false, problem: "license-file-unreadable" };
  const verified = await verifyLicenseToken(contents.token, publicKey);
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
