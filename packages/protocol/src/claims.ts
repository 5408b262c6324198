/**
 * What a license token and an offline marker carry (docs/client-protocol.md), declared once for the server,
 * the contracts and the SDK. Written as plain types, not inferred from the zod schemas of token.ts and
 * marker.ts, so that the SDK can publish them without zod; `claims.test.ts` holds the schemas to them.
 * This module imports nothing: a bundle that takes a value from it takes no zod.
 */

/** How a license is tied to machines (spec §4, activation table). */
export const HW_BINDING_MODES = ["none", "fixed", "firstActivation"] as const;
export type HwBindingMode = (typeof HW_BINDING_MODES)[number];

/**
 * How far a machine's fingerprint components may drift and still be the same machine (decision 0046):
 * `exact` compares the hwFingerprint alone; the others heal an activation whose components match at
 * least 0.8, 0.6 or 0.4 of the stored ones.
 */
export const FINGERPRINT_MATCH_MODES = ["exact", "strict", "fuzzy", "loose"] as const;
export type FingerprintMatchMode = (typeof FINGERPRINT_MATCH_MODES)[number];

/**
 * How a license's seats are counted (decision 0048): `nodeLocked`, a seat per activated machine; `floating`,
 * a seat per live lease, activations registering machines without taking one.
 */
export const SEAT_MODELS = ["nodeLocked", "floating"] as const;
export type SeatModel = (typeof SEAT_MODELS)[number];
/** The least share of a stored machine's components that still recognises it; `exact` never compares them. */
export const MATCH_THRESHOLDS: Record<Exclude<FingerprintMatchMode, "exact">, number> = {
  strict: 0.8,
  fuzzy: 0.6,
  loose: 0.4,
};

/**
 * How a revocation reaches a license's machines (decision 0049): `graceful` (the default) is the spec's
 * rule 5, the offline window runs its course; `immediate` answers a revoked license's client calls with a
 * signed revocation the SDK turns into `Revoked` at once.
 */
export const REVOCATION_MODES = ["graceful", "immediate"] as const;
export type RevocationMode = (typeof REVOCATION_MODES)[number];

/** The config a token carries: a features array and a limits object, plus what the template adds. */
export interface TokenConfig {
  [key: string]: unknown;
  features: string[];
  limits: Record<string, unknown>;
}

/** The JWS protected header of a license token. */
export interface TokenHeader {
  [key: string]: unknown;
  alg: "EdDSA";
  typ: "JWT";
  /** Id of the signing key. */
  kid: string;
}

/** The claims of a license token; times are unix seconds. */
export interface TokenClaims {
  [key: string]: unknown;
  iss: string;
  /** The licensee company. */
  sub: string;
  /** License id. */
  lid: string;
  /** License key. */
  lk: string;
  /** Product code of the template. */
  tpl: string;
  /** currentVersion of the license. */
  ver: number;
  iat: number;
  /** Hard expiry. */
  exp: number;
  trial: boolean;
  hw: { mode: HwBindingMode; fp: string | null };
  /** The license's fingerprint matching; absent in tokens signed before it existed (read as `fuzzy`). */
  fm?: FingerprintMatchMode;
  /** The license's revocation mode; absent in tokens signed before it existed (read as `graceful`). */
  rv?: RevocationMode;
  /** The seat model; absent in tokens signed before it existed (read as `nodeLocked`). */
  sm?: SeatModel;
  /** Lease length in seconds (a floating license's leases). */
  ls?: number;
  /** How many days ahead a lease may be borrowed; 0: no borrowing. */
  mb?: number;
  cfg: TokenConfig;
}

/** The offline marker's payload; times are unix seconds. */
export interface MarkerPayload {
  [key: string]: unknown;
  lid: string;
  /** Activation id. */
  aid: string;
  fp: string | null;
  iat: number;
  /** Issue time plus the license's offline days. */
  exp: number;
  /**
   * The signing key, when it is not the template's root key (the key programs are built with): its
   * certificate comes with the marker (decision 0049).
   */
  kid?: string;
}

/**
 * The lease token's payload (decision 0048); times are unix seconds. `typ` tells it from an offline
 * marker, which it otherwise resembles: the marker parsers refuse a payload carrying `typ`.
 */
export interface LeaseTokenPayload {
  [key: string]: unknown;
  typ: "lease";
  /** Lease id. */
  lsid: string;
  lid: string;
  /** Activation id. */
  aid: string;
  fp: string | null;
  iat: number;
  /** The lease's expiresAt. */
  exp: number;
  /** The signing key, when it is not the template's root key: as a marker's (decision 0049). */
  kid?: string;
}
