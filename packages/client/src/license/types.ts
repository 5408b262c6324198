/**
 * The token and marker types as the package publishes them. They are the protocol's (zod-inferred) types
 * written out, so the published declarations need neither zod nor a workspace package; `types.test.ts`
 * fails the typecheck the moment they drift from `@licensing/protocol`.
 */

export type HwBindingMode = "none" | "fixed" | "firstActivation";

/** The config a token carries: a features array and a limits object, plus what the template adds. */
export interface TokenConfig {
  [key: string]: unknown;
  features: string[];
  limits: Record<string, unknown>;
}

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
}

export interface ParsedToken {
  header: TokenHeader;
  claims: TokenClaims;
  /** The bytes the signature covers: the ASCII of the first two segments with their dot. */
  signingInput: string;
  signature: Uint8Array;
}
