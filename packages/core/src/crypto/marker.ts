import type { KeyObject } from "node:crypto";
import {
  encodeBase64url,
  encodeMarkerBody,
  parseMarker,
  type MarkerPayload as Payload,
} from "@licensing/protocol";
import { publicKeyFromHex, signEd25519, verifyEd25519 } from "./ed25519.ts";

/**
 * The offline marker (heartbeatToken, docs/client-protocol.md): `base64url(JSON).base64url(sig)`, signed
 * with the license's signing key over the ASCII of the first segment. A JWS signing input always holds
 * a `.` and a marker's never does, so a marker signature can never pass as a token signature.
 */
export function signMarker(payload: Payload, privateKey: KeyObject): string {
  const body = encodeMarkerBody(payload);
  return `${body}.${encodeBase64url(signEd25519(privateKey, body))}`;
}

export type MarkerVerification =
  | { valid: true; payload: Payload }
  | { valid: false; reason: "malformed" | "bad_signature" | "invalid_payload" | "expired" };

/**
 * Verifies a marker, decoded by the protocol's `parseMarker` as the SDK decodes it; with `now`, one whose
 * exp is not after it is rejected as expired.
 */
export function verifyMarker(
  marker: string,
  publicKey: KeyObject | string,
  options: { now?: Date } = {},
): MarkerVerification {
  const parsed = parseMarker(marker);
  if (!parsed.ok) return { valid: false, reason: parsed.reason };
  const { payload, signingInput, signature } = parsed.marker;
  const key = typeof publicKey === "string" ? publicKeyFromHex(publicKey) : publicKey;
  if (!verifyEd25519(key, signingInput, signature)) return { valid: false, reason: "bad_signature" };
  if (options.now && payload.exp * 1000 <= options.now.getTime()) return { valid: false, reason: "expired" };
  return { valid: true, payload };
}
