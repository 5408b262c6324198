import type { KeyObject } from "node:crypto";
import {
  encodeBase64url,
  encodeLeaseTokenBody,
  parseLeaseToken,
  type LeaseTokenPayload as Payload,
} from "@licensing/protocol";
import { publicKeyFromHex, signEd25519, verifyEd25519 } from "./ed25519.ts";

/**
 * The lease token (leaseToken, decision 0048): signed like the offline marker, with the license's key over
 * the ASCII of the first segment; its payload's `typ: "lease"` keeps it from passing for a marker.
 */
export function signLeaseToken(payload: Payload, privateKey: KeyObject): string {
  const body = encodeLeaseTokenBody(payload);
  return `${body}.${encodeBase64url(signEd25519(privateKey, body))}`;
}

export type LeaseTokenVerification =
  | { valid: true; payload: Payload }
  | { valid: false; reason: "malformed" | "bad_signature" | "invalid_payload" };

/** Verifies a lease token, decoded by the protocol's `parseLeaseToken` as the SDK decodes it. */
export function verifyLeaseToken(token: string, publicKey: KeyObject | string): LeaseTokenVerification {
  const parsed = parseLeaseToken(token);
  if (!parsed.ok) return { valid: false, reason: parsed.reason };
  const { payload, signingInput, signature } = parsed.lease;
  const key = typeof publicKey === "string" ? publicKeyFromHex(publicKey) : publicKey;
  if (!verifyEd25519(key, signingInput, signature)) return { valid: false, reason: "bad_signature" };
  return { valid: true, payload };
}
