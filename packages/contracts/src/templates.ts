import { FINGERPRINT_MATCH_MODES, REVOCATION_MODES, SEAT_MODELS } from "@licensing/protocol";
import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";
import { example } from "./examples.ts";

export const TemplateStatus = z.enum(["Active", "Archived"]);
export type TemplateStatus = z.infer<typeof TemplateStatus>;
export const SigningKeyStatus = z.enum(["Active", "Inactive", "Retired"]).meta({
  description:
    "Active signs new tokens (one per template); Inactive was rotated out and still verifies; Retired is withdrawn",
});
export type SigningKeyStatus = z.infer<typeof SigningKeyStatus>;

/** Spec §8: a template's defaultOfflineDays is clamped (not rejected) into this range. */
export const TEMPLATE_OFFLINE_DAYS = { min: 1, max: 30 } as const;
/** Upper bound of configSchema and defaults, well inside the 1 MiB request limit. */
export const MAX_CONFIG_JSON_LENGTH = 256 * 1024;

const TemplateName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta({ examples: [example.templateName] });
const Description = z
  .string()
  .trim()
  .max(2000)
  .meta({ examples: ["The desktop editor, per-seat licenses"] });
const ProductCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
    message: "1 to 64 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit",
  })
  .meta({ description: "Unique regardless of case", examples: [example.productCode] });
const OfflineDays = z.int().meta({ description: "Clamped to 1..30", examples: [7] });
const ValidityDays = z
  .int()
  .min(1)
  .max(36_500)
  .meta({ description: "1..36500 days", examples: [365] });

export const FingerprintMatch = z.enum(FINGERPRINT_MATCH_MODES).meta({
  description:
    "How a machine whose hwFingerprint changed is still recognised by its components: exact (the fingerprint alone), strict (at least 0.8 of the stored components match), fuzzy (0.6), loose (0.4)",
  examples: ["fuzzy"],
});
export type FingerprintMatch = z.infer<typeof FingerprintMatch>;
export const DEFAULT_FINGERPRINT_MATCH: FingerprintMatch = "fuzzy";
export { MATCH_THRESHOLDS } from "@licensing/protocol";

export const RevocationMode = z.enum(REVOCATION_MODES).meta({
  description:
    "How a revocation reaches the license's machines: graceful (the spec's rule 5: the server refuses, markers stop, the offline window runs its course) or immediate (the refusal carries a signed revocation and the SDK reports Revoked at once; the revocation list reaches machines that never go online)",
  examples: ["graceful"],
});
export type RevocationMode = z.infer<typeof RevocationMode>;
export const DEFAULT_REVOCATION: RevocationMode = "graceful";

/** The device budget's bounds (decision 0047). */
export const NEW_DEVICE_WINDOW_DAYS = { min: 1, max: 365, default: 30 } as const;
export const MaxNewDevicesPerWindow = z
  .int()
  .min(1)
  .max(1_000_000)
  .nullable()
  .meta({
    description: "How many new devices may activate within newDeviceWindowDays; null: no limit",
    examples: [3],
  });
export const NewDeviceWindowDays = z
  .int()
  .min(NEW_DEVICE_WINDOW_DAYS.min)
  .max(NEW_DEVICE_WINDOW_DAYS.max)
  .meta({ description: "The device budget's window, 1..365 days", examples: [30] });

/** The floating seat terms' bounds and defaults (decision 0048). */
export const LEASE_SECONDS = { min: 60, max: 86_400, default: 900 } as const;
export const MAX_BORROW_DAYS = { min: 0, max: 30, default: 0 } as const;
export const SeatModel = z.enum(SEAT_MODELS).meta({
  description:
    "nodeLocked: each activated machine holds a seat (limits.maxSeats caps activations). floating: limits.maxSeats caps the leases live at once; activations register machines without taking a seat (limits.maxMachines may cap them)",
  examples: ["floating"],
});
export type SeatModel = z.infer<typeof SeatModel>;
export const DEFAULT_SEAT_MODEL: SeatModel = "nodeLocked";
export const LeaseSeconds = z
  .int()
  .min(LEASE_SECONDS.min)
  .max(LEASE_SECONDS.max)
  .meta({
    description: "How long a floating license's lease lasts unless renewed, 60..86400 seconds",
    examples: [900],
  });
export const MaxBorrowDays = z
  .int()
  .min(MAX_BORROW_DAYS.min)
  .max(MAX_BORROW_DAYS.max)
  .meta({
    description: "How many days ahead a lease may be borrowed for offline work, 0..30; 0: no borrowing",
    examples: [7],
  });

export const CreateTemplateRequest = z
  .object({
    name: TemplateName,
    productCode: ProductCode,
    description: Description.nullish(),
    defaultOfflineDays: OfflineDays,
    defaultValidityDays: ValidityDays,
    fingerprintMatch: FingerprintMatch.default(DEFAULT_FINGERPRINT_MATCH),
    maxNewDevicesPerWindow: MaxNewDevicesPerWindow.default(null),
    newDeviceWindowDays: NewDeviceWindowDays.default(NEW_DEVICE_WINDOW_DAYS.default),
    seatModel: SeatModel.default(DEFAULT_SEAT_MODEL),
    leaseSeconds: LeaseSeconds.default(LEASE_SECONDS.default),
    maxBorrowDays: MaxBorrowDays.default(MAX_BORROW_DAYS.default),
    revocation: RevocationMode.default(DEFAULT_REVOCATION),
  })
  .meta({ id: "CreateTemplateRequest" });
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequest>;

/** docs/behaviour.md; productCode is fixed once created, so sending it is an error, not a no-op. */
export const UpdateTemplateRequest = z
  .strictObject({
    name: TemplateName.optional(),
    description: Description.nullable().optional(),
    defaultOfflineDays: OfflineDays.optional(),
    defaultValidityDays: ValidityDays.optional(),
    fingerprintMatch: FingerprintMatch.optional(),
    maxNewDevicesPerWindow: MaxNewDevicesPerWindow.optional(),
    newDeviceWindowDays: NewDeviceWindowDays.optional(),
    seatModel: SeatModel.optional(),
    leaseSeconds: LeaseSeconds.optional(),
    maxBorrowDays: MaxBorrowDays.optional(),
    revocation: RevocationMode.optional().meta({ description: "Licenses already issued keep theirs" }),
  })
  .meta({ id: "UpdateTemplateRequest" });
export type UpdateTemplateRequest = z.infer<typeof UpdateTemplateRequest>;

export const TemplateListQuery = z.object({ status: TemplateStatus.optional() });

export const LicenseTemplateResponse = z
  .object({
    id: Uuid,
    name: z.string().meta({ examples: [example.templateName] }),
    productCode: z.string().meta({ examples: [example.productCode] }),
    description: z
      .string()
      .nullable()
      .meta({ examples: ["The desktop editor, per-seat licenses"] }),
    defaultOfflineDays: z.int().meta({ examples: [7] }),
    defaultValidityDays: z.int().meta({ examples: [365] }),
    fingerprintMatch: FingerprintMatch,
    maxNewDevicesPerWindow: MaxNewDevicesPerWindow,
    newDeviceWindowDays: NewDeviceWindowDays,
    seatModel: SeatModel,
    leaseSeconds: LeaseSeconds,
    maxBorrowDays: MaxBorrowDays,
    revocation: RevocationMode,
    status: TemplateStatus,
    currentVersionId: Uuid.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "LicenseTemplateResponse" });
export type LicenseTemplateResponse = z.infer<typeof LicenseTemplateResponse>;

export const CreateTemplateVersionRequest = z
  .object({
    configSchema: z
      .string()
      .max(MAX_CONFIG_JSON_LENGTH)
      .meta({
        description: "A JSON Schema (draft 2020-12) as a JSON string",
        examples: [example.configSchema],
      }),
    defaults: z
      .string()
      .max(MAX_CONFIG_JSON_LENGTH)
      .nullish()
      .meta({ description: "A JSON object as a JSON string; absent means {}", examples: [example.defaults] }),
    changelog: z
      .string()
      .trim()
      .max(10_000)
      .nullish()
      .meta({ examples: ["Adds the sync feature"] }),
  })
  .meta({ id: "CreateTemplateVersionRequest" });
export type CreateTemplateVersionRequest = z.infer<typeof CreateTemplateVersionRequest>;

export const TemplateVersionResponse = z
  .object({
    id: Uuid,
    templateId: Uuid,
    version: z.int().meta({ examples: [2] }),
    configSchema: z.string().meta({ examples: [example.configSchema] }),
    defaults: z.string().meta({ examples: [example.defaults] }),
    signingKeyId: Uuid,
    changelog: z
      .string()
      .nullable()
      .meta({ examples: ["Adds the sync feature"] }),
    createdAt: Timestamp,
  })
  .meta({ id: "TemplateVersionResponse" });
export type TemplateVersionResponse = z.infer<typeof TemplateVersionResponse>;

export const TemplateVersionParams = z.object({
  id: Uuid,
  version: z.coerce.number().int().min(1).max(2_147_483_647).meta({ description: "The version number" }),
});

/** A version's configSchema as TypeScript, for `LicenseClient<Config>` (decision 0043). */
export const TemplateVersionTypesResponse = z
  .object({
    templateId: Uuid,
    version: z.int(),
    typeName: z.string().meta({ example: "EditorConfig" }),
    featureTypeName: z.string().nullable().meta({
      description: "The union of feature names; null when the schema lists none",
      example: "EditorFeature",
    }),
    fileName: z.string().meta({ example: "editor-config.ts" }),
    source: z.string().meta({ description: "The TypeScript source, what `licensing-codegen` writes" }),
  })
  .meta({ id: "TemplateVersionTypesResponse" });
export type TemplateVersionTypesResponse = z.infer<typeof TemplateVersionTypesResponse>;

export const SigningKeyResponse = z
  .object({
    id: Uuid,
    status: SigningKeyStatus,
    notBefore: Timestamp,
    notAfter: Timestamp.nullable().meta({ description: "When the key stopped signing; null while Active" }),
    createdAt: Timestamp,
    publicKeyHex: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: "Hex of the raw 32-byte Ed25519 public key", examples: [example.publicKeyHex] }),
    isRoot: z.boolean().meta({
      description:
        "The template's root key: what programs embed and what certifies the keys that follow it (a key that is not the root signs with its certificate)",
    }),
  })
  .meta({ id: "SigningKeyResponse" });
export type SigningKeyResponse = z.infer<typeof SigningKeyResponse>;

export const TemplateKeyParams = z.object({ id: Uuid, keyId: Uuid });
