import * as ed from "@noble/ed25519";
import {
  decodeBase64urlStrict,
  ED25519_PUBLIC_KEY_HEX,
  fromHex,
  decodeMarker,
  decodeToken,
  utf8,
} from "@licensing/protocol";
import type { MarkerPayload, ParsedToken } from "../license/types.ts";

/** An Ed25519 public key: 32 raw bytes, or their 64 hex characters as the API returns them. */
export type PublicKeyInput = Uint8Array | string;

/** The 32 bytes of a public key option; throws a TypeError naming what is wrong. */
export function toPublicKey(input: PublicKeyInput): Uint8Array {
  if (typeof input === "string") {
    const hex = input.trim();
    if (!ED25519_PUBLIC_KEY_HEX.test(hex)) {
      throw new TypeError("publicKey must be 32 bytes or 64 hex characters (the template's Ed25519 key)");
    }
    return fromHex(hex)!;
  }
  if (!(input instanceof Uint8Array) || input.length !== 32) {
    throw new TypeError("publicKey must be 32 bytes or 64 hex characters (the template's Ed25519 key)");
  }
  return Uint8Array.from(input);
}

/** RFC 8032 verification (not ZIP 215's looser rules), as the server's OpenSSL signs and checks. */
export async function ed25519Verify(signature: Uint8Array, message: string, publicKey: Uint8Array) {
  try {
    return await ed.verifyAsync(signature, utf8(message), publicKey, { zip215: false });
  } catch {
    return false;
  }
}

export type TokenVerification =
  | { ok: true; token: ParsedToken }
  /** `signature-invalid`: not signed by this key (or not a JWS at all); `claims-invalid`: signed, but unreadable. */
  | { ok: false; reason: "signature-invalid" | "claims-invalid" };

/**
 * Verifies a license token (JWS compact, EdDSA) with `publicKey`, signature first: a changed byte anywhere
 * is a bad signature, never a parse error.
 */
export async function verifyLicenseToken(token: string, publicKey: Uint8Array): Promise<TokenVerification> {
  const segments = token.split(".");
  const signature = segments.length === 3 ? decodeBase64urlStrict(segments[2]!) : null;
  if (!signature || signature.length !== 64) return { ok: false, reason: "signature-invalid" };
  if (!(await ed25519Verify(signature, `${segments[0]}.${segments[1]}`, publicKey))) {
    return { ok: false, reason: "signature-invalid" };
  }
  const parsed = decodeToken(token);
  if (parsed.ok) return { ok: true, token: parsed.token };
  return { ok: false, reason: parsed.reason === "invalid_claims" ? "claims-invalid" : "signature-invalid" };
}

/**
 * Verifies an offline marker (`base64url(payload).base64url(signature)`) with `publicKey`, signature first
 * like the token: `malformed` only when it is not shaped like a marker at all.
 */
export async function verifyMarker(
  marker: string,
  publicKey: Uint8Array,
): Promise<{ ok: true; payload: MarkerPayload } | { ok: false; reason: "malformed" | "signature-invalid" }> {
  const segments = marker.trim().split(".");
  const signature = segments.length === 2 ? decodeBase64urlStrict(segments[1]!) : null;
  if (!signature || signature.length !== 64) return { ok: false, reason: "malformed" };
  if (!(await ed25519Verify(signature, segments[0]!, publicKey)))
    return { ok: false, reason: "signature-invalid" };
  const parsed = decodeMarker(marker.trim());
  return parsed.ok ? { ok: true, payload: parsed.marker.payload } : { ok: false, reason: "malformed" };
}
