import {
  FINGERPRINT_MATCH_MODES,
  HW_BINDING_MODES,
  REVOCATION_MODES,
  SEAT_MODELS,
  type HwBindingMode,
} from "./claims.ts";
import type { ParsedLeaseToken } from "./lease-token.ts";
import type { MarkerParseFailure, ParsedMarker } from "./marker.ts";
import { decodeMarkerSegments, decodeTokenSegments } from "./segments.ts";
import { isUnixSeconds, isUuid } from "./signed-document.ts";
import type { ParsedToken, TokenParseFailure } from "./token.ts";

/**
 * `parseToken` and `parseMarker` without zod, for bundles that count their bytes (the SDK's core entry
 * stays under 15 kB min+gzip; zod's runtime alone is about 7 kB). They accept and return exactly what the
 * zod schemas of token.ts, marker.ts and lease-token.ts do: `decode.test.ts` holds the two to each other,
 * field by field.
 * Types only are imported from those modules (values from claims.ts, which has no zod), so importing this
 * one brings no zod into a bundle.
 */

const HW_MODES: readonly unknown[] = HW_BINDING_MODES;
const FM_MODES: readonly unknown[] = FINGERPRINT_MATCH_MODES;
const RV_MODES: readonly unknown[] = REVOCATION_MODES;
const SM_MODES: readonly unknown[] = SEAT_MODELS;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown) => typeof v === "string";
const isIntAtLeast = (v: unknown, min: number) => Number.isSafeInteger(v) && (v as number) >= min;
/** An optional member: absent (a key with the value undefined cannot come from JSON), or valid. */
const optional = (raw: Json, key: string, valid: (v: unknown) => boolean) => !(key in raw) || valid(raw[key]);

function tokenHeader(raw: Json) {
  return raw.alg === "EdDSA" && raw.typ === "JWT" && isUuid(raw.kid) && !("crit" in raw)
    ? (raw as ParsedToken["header"])
    : null;
}

function tokenClaims(raw: Json): ParsedToken["claims"] | null {
  const { hw, cfg } = raw;
  const valid =
    isString(raw.iss) &&
    isUuid(raw.sub) &&
    isUuid(raw.lid) &&
    isString(raw.lk) &&
    isString(raw.tpl) &&
    Number.isSafeInteger(raw.ver) &&
    (raw.ver as number) >= 1 &&
    isUnixSeconds(raw.iat) &&
    isUnixSeconds(raw.exp) &&
    typeof raw.trial === "boolean" &&
    isObject(hw) &&
    HW_MODES.includes(hw.mode) &&
    (hw.fp === null || isString(hw.fp)) &&
    optional(raw, "fm", (v) => FM_MODES.includes(v)) &&
    optional(raw, "rv", (v) => RV_MODES.includes(v)) &&
    optional(raw, "sm", (v) => SM_MODES.includes(v)) &&
    optional(raw, "ls", (v) => isIntAtLeast(v, 1)) &&
    optional(raw, "mb", (v) => isIntAtLeast(v, 0)) &&
    isObject(cfg) &&
    Array.isArray(cfg.features) &&
    cfg.features.every(isString) &&
    isObject(cfg.limits);
  if (!valid) return null;
  // z.object (hw) keeps only its own keys; the loose objects keep everything.
  const { mode, fp } = hw as { mode: HwBindingMode; fp: string | null };
  return { ...raw, hw: { mode, fp } } as ParsedToken["claims"];
}

/** `parseToken` without zod: splits and decodes a license token without verifying it. */
export function decodeToken(
  token: string,
): { ok: true; token: ParsedToken } | { ok: false; reason: TokenParseFailure } {
  const decoded = decodeTokenSegments(token);
  if (!decoded) return { ok: false, reason: "malformed" };
  const { rawHeader, rawClaims, signingInput, signature } = decoded;
  const header = tokenHeader(rawHeader);
  if (!header) return { ok: false, reason: "unsupported_header" };
  const claims = tokenClaims(rawClaims);
  if (!claims) return { ok: false, reason: "invalid_claims" };
  return { ok: true, token: { header, claims, signingInput, signature } };
}

/** `parseMarker` without zod: splits and decodes a marker without verifying it. */
export function decodeMarker(
  marker: string,
): { ok: true; marker: ParsedMarker } | { ok: false; reason: MarkerParseFailure } {
  const decoded = decodeMarkerSegments(marker);
  if (!decoded) return { ok: false, reason: "malformed" };
  const { raw, signingInput, signature } = decoded;
  const valid =
    !("typ" in raw) &&
    isUuid(raw.lid) &&
    isUuid(raw.aid) &&
    (raw.fp === null || isString(raw.fp)) &&
    isUnixSeconds(raw.iat) &&
    isUnixSeconds(raw.exp) &&
    optional(raw, "kid", isUuid);
  if (!valid) return { ok: false, reason: "invalid_payload" };
  return { ok: true, marker: { payload: raw as ParsedMarker["payload"], signingInput, signature } };
}

/** `parseLeaseToken` without zod: splits and decodes a lease token without verifying it. */
export function decodeLeaseToken(
  token: string,
): { ok: true; lease: ParsedLeaseToken } | { ok: false; reason: MarkerParseFailure } {
  const decoded = decodeMarkerSegments(token);
  if (!decoded) return { ok: false, reason: "malformed" };
  const { raw, signingInput, signature } = decoded;
  const valid =
    raw.typ === "lease" &&
    isUuid(raw.lsid) &&
    isUuid(raw.lid) &&
    isUuid(raw.aid) &&
    (raw.fp === null || isString(raw.fp)) &&
    isUnixSeconds(raw.iat) &&
    isUnixSeconds(raw.exp) &&
    optional(raw, "kid", isUuid);
  if (!valid) return { ok: false, reason: "invalid_payload" };
  return { ok: true, lease: { payload: raw as ParsedLeaseToken["payload"], signingInput, signature } };
}
