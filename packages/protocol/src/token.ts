import * as z from "zod/mini";
import { encodeBase64url } from "./base64url.ts";
import { decodeTokenSegments } from "./segments.ts";

/** How a license is tied to machines (spec §4, activation table). */
export const HW_BINDING_MODES = ["none", "fixed", "firstActivation"] as const;
export type HwBindingMode = (typeof HW_BINDING_MODES)[number];

const UnixSeconds = z.int().check(z.minimum(0));

/** The config carried in a token: a features array and a limits object, plus whatever the template adds. */
export const TokenConfig = z.looseObject({
  features: z.array(z.string()),
  limits: z.record(z.string(), z.unknown()),
});
export type TokenConfig = z.infer<typeof TokenConfig>;

/** The JWS protected header of a license token (ARCHITECTURE.md §3). */
export const TokenHeader = z.looseObject({
  alg: z.literal("EdDSA"),
  typ: z.literal("JWT"),
  /** Id of the signing key. */
  kid: z.uuid(),
});
export type TokenHeader = z.infer<typeof TokenHeader>;

/** The claims of a license token (ARCHITECTURE.md §3); times are unix seconds. */
export const TokenClaims = z.looseObject({
  iss: z.string(),
  /** The licensee company. */
  sub: z.uuid(),
  /** License id. */
  lid: z.uuid(),
  /** License key. */
  lk: z.string(),
  /** Product code of the template. */
  tpl: z.string(),
  /** currentVersion of the license. */
  ver: z.int().check(z.minimum(1)),
  iat: UnixSeconds,
  /** Hard expiry. */
  exp: UnixSeconds,
  trial: z.boolean(),
  hw: z.object({ mode: z.enum(HW_BINDING_MODES), fp: z.nullable(z.string()) }),
  cfg: TokenConfig,
});
export type TokenClaims = z.infer<typeof TokenClaims>;

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
  const header = TokenHeader.safeParse(rawHeader);
  if (!header.success || "crit" in rawHeader) return { ok: false, reason: "unsupported_header" };
  const claims = TokenClaims.safeParse(rawClaims);
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
