import type { KeyObject } from "node:crypto";
import { OfflineMarkerPayload, type OfflineMarkerPayload as Payload } from "@licensing/contracts";
import {
  decodeBase64urlStrict,
  decodeJsonSegment,
  encodeBase64url,
  encodeMarkerBody,
} from "@licensing/protocol";
import { publicKeyFromHex, signEd25519, verifyEd25519 } from "./ed25519.ts";

/**
 * The offline marker (heartbeatToken, ARCHITECTURE.md §3): `base64url(JSON).base64url(sig)`, signed
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

/** Verifies a marker; with `now`, one whose exp is not after it is rejected as expired. */
export function verifyMarker(
  marker: string,
  publicKey: KeyObject | string,
  options: { now?: Date } = {},
): MarkerVerification {
  const segments = marker.split(".");
  if (segments.length !== 2) return { valid: false, reason: "malformed" };
  const [body, encodedSignature] = segments as [string, string];
  const raw = decodeJsonSegment(body);
  const signature = decodeBase64urlStrict(encodedSignature);
  if (!raw || !signature) return { valid: false, reason: "malformed" };
  const key = typeof publicKey === "string" ? publicKeyFromHex(publicKey) : publicKey;
  if (!verifyEd25519(key, body, signature)) return { valid: false, reason: "bad_signature" };
  const payload = OfflineMarkerPayload.safeParse(raw);
  if (!payload.success) return { valid: false, reason: "invalid_payload" };
  if (options.now && payload.data.exp * 1000 <= options.now.getTime())
    return { valid: false, reason: "expired" };
  return { valid: true, payload: payload.data };
}
