import { createHmac, timingSafeEqual, type KeyObject } from "node:crypto";
import {
  encodeOfflineResponseSigningInput,
  formatOfflineResponse,
  parseOfflineResponse,
  type OfflineActivationClaims,
  type OfflineActivationHeader,
  type OfflineParseFailure,
} from "@licensing/protocol/offline";
import { publicKeyFromHex, signEd25519, verifyEd25519 } from "./ed25519.ts";
import type { TokenSigner } from "./license-token.ts";

/**
 * Whether `mac` is the HMAC-SHA256, keyed with the UTF-8 of the license key, of an offline request's or
 * receipt's `macInput` (the protocol's `offlineMacInput`); compared in constant time.
 */
export function offlineMacMatches(licenseKey: string, macInput: string, mac: Uint8Array): boolean {
  const expected = createHmac("sha256", licenseKey).update(macInput, "utf8").digest();
  return mac.length === expected.length && timingSafeEqual(expected, mac);
}

/** The armored offline activation response: a JWS (EdDSA, typ license-activation+jwt) by `signer`. */
export function signOfflineResponse(
  claims: OfflineActivationClaims,
  signer: TokenSigner & { certificate?: string | null },
): string {
  const signingInput = encodeOfflineResponseSigningInput(signer.keyId, claims, signer.certificate ?? null);
  return formatOfflineResponse(signingInput, signEd25519(signer.privateKey, signingInput));
}

export type OfflineResponseVerification =
  | { valid: true; header: OfflineActivationHeader; claims: OfflineActivationClaims }
  | { valid: false; reason: OfflineParseFailure | "bad_signature" };

/** Verifies an armored offline activation response with a public key (KeyObject or the API's hex). */
export function verifyOfflineResponse(
  text: string,
  publicKey: KeyObject | string,
): OfflineResponseVerification {
  const parsed = parseOfflineResponse(text);
  if (!parsed.ok) return { valid: false, reason: parsed.reason };
  const key = typeof publicKey === "string" ? publicKeyFromHex(publicKey) : publicKey;
  if (!verifyEd25519(key, parsed.signingInput, parsed.signature))
    return { valid: false, reason: "bad_signature" };
  return { valid: true, header: parsed.header, claims: parsed.claims };
}
