import { z } from "zod";
import {
  HW_BINDING_MODES,
  MarkerPayloadSchema,
  TokenClaimsSchema,
  TokenConfigSchema,
  TokenHeaderSchema,
  type MarkerPayload,
  type TokenClaims,
  type TokenConfig,
  type TokenHeader,
} from "@licensing/protocol";

// The token and the marker are the protocol's (docs/client-protocol.md): declared there once, for the server
// and the SDK alike, and named here as the contracts name them.

/** How a license is tied to machines (spec §4, activation table). */
export const HwBinding = z.enum(HW_BINDING_MODES);
export type HwBinding = z.infer<typeof HwBinding>;

/** The config carried in a token: a features array and a limits object, plus whatever the template adds. */
export const LicenseTokenConfig = TokenConfigSchema;
export type LicenseTokenConfig = TokenConfig;

/** The JWS protected header of a license token. */
export const LicenseTokenHeader = TokenHeaderSchema;
export type LicenseTokenHeader = TokenHeader;

/** The claims of a license token; times are unix seconds. */
export const LicenseTokenClaims = TokenClaimsSchema;
export type LicenseTokenClaims = TokenClaims;

/**
 * The offline marker (heartbeatToken): `base64url(JSON payload).base64url(signature)`, where the
 * signature is Ed25519 over the ASCII of the first segment, by the key that signed the license token.
 */
export const OfflineMarkerPayload = MarkerPayloadSchema;
export type OfflineMarkerPayload = MarkerPayload;
