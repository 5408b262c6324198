import * as z from "zod/mini";
import { encodeBase64url } from "./base64url.ts";
import type { LeaseTokenPayload } from "./claims.ts";
import { described } from "./described.ts";
import type { MarkerParseFailure } from "./marker.ts";
import { decodeMarkerSegments } from "./segments.ts";

/**
 * The lease token (`leaseToken`, decision 0048): signed like the offline marker,
 * `base64url(JSON payload).base64url(signature)`, Ed25519 over the ASCII of the first segment by the key
 * that signs the license's markers (the license token's key, or the template's Active key once that one is
 * retired), and like a marker it names its key (`kid`, after `exp`) when that key is not the template's root,
 * the key's certificate coming with the answer (decision 0049). Its `typ: "lease"` keeps the two apart: a
 * marker parser refuses a payload with `typ`, and this one requires it.
 */
export const LeaseTokenPayloadSchema = z.looseObject({
  typ: z.literal("lease"),
  lsid: described(z.uuid(), "Lease id"),
  lid: described(z.uuid(), "License id"),
  aid: described(z.uuid(), "Activation id"),
  fp: z.nullable(z.string()),
  iat: z.int().check(z.minimum(0)),
  exp: described(z.int().check(z.minimum(0)), "The lease's expiresAt"),
  kid: z.optional(described(z.uuid(), "The signing key, when it is not the template's root key")),
});

/** The lease token's first segment, members in a fixed order: what is signed. */
export const encodeLeaseTokenBody = (payload: LeaseTokenPayload): string =>
  encodeBase64url(
    JSON.stringify({
      typ: payload.typ,
      lsid: payload.lsid,
      lid: payload.lid,
      aid: payload.aid,
      fp: payload.fp,
      iat: payload.iat,
      exp: payload.exp,
      ...(payload.kid === undefined ? {} : { kid: payload.kid }),
    }),
  );

export interface ParsedLeaseToken {
  payload: LeaseTokenPayload;
  /** The first segment, whose ASCII the signature covers. */
  signingInput: string;
  signature: Uint8Array;
}

/** Splits and decodes a lease token without verifying it. */
export function parseLeaseToken(
  token: string,
): { ok: true; lease: ParsedLeaseToken } | { ok: false; reason: MarkerParseFailure } {
  const decoded = decodeMarkerSegments(token);
  if (!decoded) return { ok: false, reason: "malformed" };
  const { raw, signingInput, signature } = decoded;
  const payload = LeaseTokenPayloadSchema.safeParse(raw);
  if (!payload.success) return { ok: false, reason: "invalid_payload" };
  return { ok: true, lease: { payload: payload.data, signingInput, signature } };
}
