import * as z from "zod/mini";
import { encodeBase64url } from "./base64url.ts";
import {
  FINGERPRINT_MATCH_MODES,
  HW_BINDING_MODES,
  SEAT_MODELS,
  REVOCATION_MODES,
  type TokenClaims,
  type TokenHeader,
} from "./claims.ts";
import { described } from "./described.ts";
import { decodeTokenSegments } from "./segments.ts";

const unixSeconds = () => z.int().check(z.minimum(0));

// The schemas of the types in claims.ts; `claims.test.ts` checks that each infers exactly its type.

export const TokenConfigSchema = z.looseObject({
  features: z.array(z.string()),
  limits: z.record(z.string(), z.unknown()),
});

export const TokenHeaderSchema = z.looseObject({
  alg: z.literal("EdDSA"),
  typ: z.literal("JWT"),
  kid: described(z.uuid(), "Id of the signing key"),
});

export const TokenClaimsSchema = z.looseObject({
  iss: z.string(),
  sub: described(z.uuid(), "The licensee company"),
  lid: described(z.uuid(), "License id"),
  lk: described(z.string(), "License key"),
  tpl: described(z.string(), "Product code of the template"),
  ver: described(z.int().check(z.minimum(1)), "currentVersion of the license"),
  iat: unixSeconds(),
  exp: described(unixSeconds(), "Hard expiry"),
  trial: z.boolean(),
  hw: z.object({ mode: z.enum(HW_BINDING_MODES), fp: z.nullable(z.string()) }),
  fm: z.optional(described(z.enum(FINGERPRINT_MATCH_MODES), "Fingerprint matching of the license")),
  rv: z.optional(described(z.enum(REVOCATION_MODES), "Revocation mode of the license")),
  sm: z.optional(described(z.enum(SEAT_MODELS), "Seat model of the license")),
  ls: z.optional(described(z.int().check(z.minimum(1)), "Lease length in seconds")),
  mb: z.optional(described(z.int().check(z.minimum(0)), "How many days ahead a lease may be borrowed")),
  cfg: TokenConfigSchema,
});

/**
 * The JWS signing input `base64url(header).base64url(claims)`, members in a fixed order, so the same
 * claims and key always give the same token (Ed25519 is deterministic).
 */
export function encodeTokenSigningInput(keyId: string, claims: TokenClaims): string {
  const header: TokenHeader = { alg: "EdDSA", typ: "JWT", kid: keyId };
  const payload = {
    iss: claims.iss,
    sub: claims.sub,
    lid: claims.lid,
    lk: claims.lk,
    tpl: claims.tpl,
    ver: claims.ver,
    iat: claims.iat,
    exp: claims.exp,
    trial: claims.trial,
    hw: { mode: claims.hw.mode, fp: claims.hw.fp },
    ...(claims.fm === undefined ? {} : { fm: claims.fm }),
    ...(claims.rv === undefined ? {} : { rv: claims.rv }),
    ...(claims.sm === undefined ? {} : { sm: claims.sm }),
    ...(claims.ls === undefined ? {} : { ls: claims.ls }),
    ...(claims.mb === undefined ? {} : { mb: claims.mb }),
    cfg: claims.cfg,
  };
  return `${encodeBase64url(JSON.stringify(header))}.${encodeBase64url(JSON.stringify(payload))}`;
}

export type TokenParseFailure = "malformed" | "unsupported_header" | "invalid_claims";

export interface ParsedToken {
  header: TokenHeader;
  claims: TokenClaims;
  /** The bytes the signature covers: the ASCII of the first two segments with their dot. */
  signingInput: string;
  signature: Uint8Array;
}

/**
 * Splits and decodes a license token without verifying it (the caller checks `signature` over
 * `signingInput` with its Ed25519). Three canonical base64url segments; the header must say EdDSA/JWT,
 * whatever else it claims, so `alg: none` and algorithm confusion fail; `crit` names extensions a
 * verifier must understand (RFC 7515 §4.1.11), and we understand none.
 */
export function parseToken(
  token: string,
): { ok: true; token: ParsedToken } | { ok: false; reason: TokenParseFailure } {
  const decoded = decodeTokenSegments(token);
  if (!decoded) return { ok: false, reason: "malformed" };
  const { rawHeader, rawClaims, signingInput, signature } = decoded;
  const header = TokenHeaderSchema.safeParse(rawHeader);
  if (!header.success || "crit" in rawHeader) return { ok: false, reason: "unsupported_header" };
  const claims = TokenClaimsSchema.safeParse(rawClaims);
  if (!claims.success) return { ok: false, reason: "invalid_claims" };
  return {
    ok: true,
    token: {
      header: header.data,
      claims: claims.data,
      signingInput,
      signature,
    },
  };
}
