import * as z from "zod/mini";
import { encodeBase64url } from "./base64url.ts";
import type { MarkerPayload } from "./claims.ts";
import { described } from "./described.ts";
import { decodeMarkerSegments } from "./segments.ts";

/**
 * The offline marker (heartbeatToken, docs/client-protocol.md): `base64url(JSON payload).base64url(signature)`,
 * the signature Ed25519 over the ASCII of the first segment, by the key that signed the license token (the
 * template's Active key once that one is retired); `kid` names the key when it is not the template's root.
 * A JWS signing input always holds a `.` and a marker's never does, so neither passes as the other.
 */
export const MarkerPayloadSchema = z
  .looseObject({
    lid: z.uuid(),
    aid: described(z.uuid(), "Activation id"),
    fp: z.nullable(z.string()),
    iat: z.int().check(z.minimum(0)),
    exp: described(z.int().check(z.minimum(0)), "Issue time plus the license's offline days"),
    kid: z.optional(described(z.uuid(), "The signing key, when it is not the template's root key")),
  })
  // A payload with `typ` is another format signed the same way (a lease token), never a marker.
  .check(z.refine((payload) => !("typ" in payload), { message: "a marker carries no typ" }));

/** The marker's first segment, members in a fixed order: what is signed. */
export const encodeMarkerBody = (payload: MarkerPayload): string =>
  encodeBase64url(
    JSON.stringify({
      lid: payload.lid,
      aid: payload.aid,
      fp: payload.fp,
      iat: payload.iat,
      exp: payload.exp,
      ...(payload.kid === undefined ? {} : { kid: payload.kid }),
    }),
  );

export type MarkerParseFailure = "malformed" | "invalid_payload";

export interface ParsedMarker {
  payload: MarkerPayload;
  /** The first segment, whose ASCII the signature covers. */
  signingInput: string;
  signature: Uint8Array;
}

/** Splits and decodes a marker without verifying it. */
export function parseMarker(
  marker: string,
): { ok: true; marker: ParsedMarker } | { ok: false; reason: MarkerParseFailure } {
  const decoded = decodeMarkerSegments(marker);
  if (!decoded) return { ok: false, reason: "malformed" };
  const { raw, signingInput, signature } = decoded;
  const payload = MarkerPayloadSchema.safeParse(raw);
  if (!payload.success) return { ok: false, reason: "invalid_payload" };
  return { ok: true, marker: { payload: payload.data, signingInput, signature } };
}
