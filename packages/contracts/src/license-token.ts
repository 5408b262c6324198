import { z } from "zod";
import { Uuid } from "./common.ts";

/** How a license is tied to machines (spec §4, activation table). */
export const HwBinding = z.enum(["none", "fixed", "firstActivation"]);
export type HwBinding = z.infer<typeof HwBinding>;

const UnixSeconds = z.int().min(0);

/** The config carried in a token: a features array and a limits object, plus whatever the template adds. */
export const LicenseTokenConfig = z.looseObject({
  features: z.array(z.string()),
  limits: z.record(z.string(), z.unknown()),
});
export type LicenseTokenConfig = z.infer<typeof LicenseTokenConfig>;

/** The JWS protected header of a license token (ARCHITECTURE.md §3). */
export const LicenseTokenHeader = z.looseObject({
  alg: z.literal("EdDSA"),
  typ: z.literal("JWT"),
  kid: Uuid.meta({ description: "Id of the signing key" }),
});
export type LicenseTokenHeader = z.infer<typeof LicenseTokenHeader>;

/** The claims of a license token (ARCHITECTURE.md §3); times are unix seconds. */
export const LicenseTokenClaims = z.looseObject({
  iss: z.string(),
  sub: Uuid.meta({ description: "The licensee company" }),
  lid: Uuid.meta({ description: "License id" }),
  lk: z.string().meta({ description: "License key" }),
  tpl: z.string().meta({ description: "Product code of the template" }),
  ver: z.int().min(1).meta({ description: "currentVersion of the license" }),
  iat: UnixSeconds,
  exp: UnixSeconds.meta({ description: "Hard expiry" }),
  trial: z.boolean(),
  hw: z.object({ mode: HwBinding, fp: z.string().nullable() }),
  cfg: LicenseTokenConfig,
});
export type LicenseTokenClaims = z.infer<typeof LicenseTokenClaims>;

/**
 * The offline marker (heartbeatToken): `base64url(JSON payload).base64url(signature)`, where the
 * signature is Ed25519 over the ASCII of the first segment, by the key that signed the license token.
 */
export const OfflineMarkerPayload = z.looseObject({
  lid: Uuid,
  aid: Uuid.meta({ description: "Activation id" }),
  fp: z.string().nullable(),
  iat: UnixSeconds,
  exp: UnixSeconds.meta({ description: "Issue time plus maxOfflineDays" }),
});
export type OfflineMarkerPayload = z.infer<typeof OfflineMarkerPayload>;
