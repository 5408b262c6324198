import type { KeyObject } from "node:crypto";
import {
  encodeBase64url,
  encodeTokenSigningInput,
  parseToken,
  type TokenClaims as Claims,
  type TokenHeader as Header,
} from "@licensing/protocol";
import { publicKeyFromHex, signEd25519, verifyEd25519 } from "./ed25519.ts";

/** The key a token is signed with: its id becomes the JWS `kid`. */
export interface TokenSigner {
  keyId: string;
  privateKey: KeyObject;
}

/**
 * A license token: JWS compact serialization, alg EdDSA (docs/architecture.md D5), so any JOSE library
 * verifies it with the hex public key. The signing input is the protocol's (claims in a fixed order), so
 * the same claims and key always give the same token (Ed25519 is deterministic).
 */
export function signLicenseToken(claims: Claims, signer: TokenSigner): string {
  const signingInput = encodeTokenSigningInput(signer.keyId, claims);
  return `${signingInput}.${encodeBase64url(signEd25519(signer.privateKey, signingInput))}`;
}

export type TokenRejection =
  "malformed" | "unsupported_header" | "wrong_key" | "bad_signature" | "invalid_claims" | "expired";

export type TokenVerification =
  { valid: true; header: Header; claims: Claims } | { valid: false; reason: TokenRejection };

export interface VerifyOptions {
  /** When given, the header's kid must name this key. */
  keyId?: string;
  /** When given, a token whose exp is not after this instant is rejected as expired. */
  now?: Date;
}

/**
 * Verifies a license token with a public key (KeyObject or the API's hex). The protocol's `parseToken`
 * decodes it, as the SDK's decoder does: only `alg: EdDSA` is accepted, whatever the header claims, so
 * `alg: none` and algorithm confusion fail; every segment must be canonical base64url.
 */
export function verifyLicenseToken(
  token: string,
  publicKey: KeyObject | string,
  options: VerifyOptions = {},
): TokenVerification {
  const reject = (reason: TokenRejection): TokenVerification => ({ valid: false, reason });
  const parsed = parseToken(token);
  if (!parsed.ok) return reject(parsed.reason);
  const { header, claims, signingInput, signature } = parsed.token;
  if (options.keyId !== undefined && header.kid !== options.keyId) return reject("wrong_key");
  const key = typeof publicKey === "string" ? publicKeyFromHex(publicKey) : publicKey;
  if (!verifyEd25519(key, signingInput, signature)) return reject("bad_signature");
  if (options.now && claims.exp * 1000 <= options.now.getTime()) return reject("expired");
  return { valid: true, header, claims };
}

/** Unix seconds of a date, as token and marker times are written. */
export const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000);
