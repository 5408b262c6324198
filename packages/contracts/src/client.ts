import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";
import { example } from "./examples.ts";

/** A license key as the client sends it; unknown keys are a 404, so only the size is checked here. */
const LicenseKey = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .meta({ examples: [example.licenseKey] });

export const ActivateRequest = z
  .object({
    licenseKey: LicenseKey,
    hwFingerprint: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: "Identifies the machine (the SDK derives it)", examples: [example.fingerprint] }),
    // null is "no name", as older SDKs send it when the host has none.
    machineName: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .nullish()
      .meta({ examples: [example.machineName] }),
  })
  .meta({ id: "ActivateRequest" });
export type ActivateRequest = z.infer<typeof ActivateRequest>;

export const ActivateResponse = z
  .object({
    activationId: Uuid.meta({ examples: [example.activationId] }),
    heartbeatToken: z.string().meta({ description: "Signed offline marker", examples: [example.marker] }),
    heartbeatIntervalSeconds: z
      .int()
      .positive()
      .meta({ examples: [900] }),
    maxOfflineDays: z
      .int()
      .positive()
      .meta({ examples: [7] }),
  })
  .meta({ id: "ActivateResponse" });
export type ActivateResponse = z.infer<typeof ActivateResponse>;

export const ActivationRequest = z
  .object({ licenseKey: LicenseKey, activationId: Uuid.meta({ examples: [example.activationId] }) })
  .meta({ id: "ActivationRequest", description: "Body of heartbeat and deactivate" });
export type ActivationRequest = z.infer<typeof ActivationRequest>;

export const HeartbeatResponse = z
  .object({
    heartbeatToken: z.string().meta({ description: "Signed offline marker", examples: [example.marker] }),
  })
  .meta({ id: "HeartbeatResponse" });
export type HeartbeatResponse = z.infer<typeof HeartbeatResponse>;

export const ClientPublicKeyResponse = z
  .object({
    publicKey: z
      .string()
      .meta({ description: "hex of the raw Ed25519 public key", examples: [example.publicKeyHex] }),
  })
  .meta({ id: "ClientPublicKeyResponse" });

export const LicenseKeyParams = z.object({ licenseKey: LicenseKey });

export const ActivationStatus = z.enum(["active", "deactivated"]);

export const ActivationResponse = z
  .object({
    id: Uuid,
    hwFingerprint: z
      .string()
      .nullable()
      .meta({ examples: [example.fingerprint] }),
    machineName: z
      .string()
      .nullable()
      .meta({ examples: [example.machineName] }),
    status: ActivationStatus,
    activatedAt: Timestamp,
    lastHeartbeatAt: Timestamp.nullable(),
    deactivatedAt: Timestamp.nullable(),
  })
  .meta({ id: "ActivationResponse" });
export type ActivationResponse = z.infer<typeof ActivationResponse>;

export const HeartbeatRecordResponse = z
  .object({ id: Uuid, activationId: Uuid, occurredAt: Timestamp })
  .meta({ id: "HeartbeatRecordResponse" });
export type HeartbeatRecordResponse = z.infer<typeof HeartbeatRecordResponse>;

export const HeartbeatsQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });
export const ActivationParams = z.object({ id: Uuid, activationId: Uuid });

/** Headers of a signed client request (spec §5 Client HMAC). */
export const SIGNATURE_HEADERS = {
  timestamp: "x-service-timestamp",
  signature: "x-service-signature",
} as const;
