import { z } from "zod";
import { MAX_JSON_DEPTH, Timestamp, Uuid } from "./common.ts";
import { MAX_CONFIG_JSON_LENGTH } from "./templates.ts";
import { HwBinding } from "./license-token.ts";

/** A license's status on the server (spec §3), as stored and as the panel shows it. */
export const LICENSE_STATUSES = ["Active", "Suspended", "Revoked", "Expired"] as const;
export const LicenseStatus = z.enum(LICENSE_STATUSES);
export type LicenseStatus = z.infer<typeof LicenseStatus>;

export const BULK_MAX_ITEMS = 200;
export const LICENSE_PAGE_SIZE = { default: 50, max: 200 } as const;

const configDescription = `JSON object with features (string array) and limits (object); at most ${MAX_CONFIG_JSON_LENGTH} characters, nested at most ${MAX_JSON_DEPTH} levels`;
const ConfigJson = z.string().max(MAX_CONFIG_JSON_LENGTH).meta({
  description: configDescription,
  example: '{"features":["export"],"limits":{"maxSeats":3}}',
});
/** A bulk item's config: its length is checked with the item, so a bad one fails only its own row. */
const ItemConfigJson = z.string().meta({ description: configDescription });
const Fingerprint = z.string().trim().min(1).max(256);
const Reason = z.string().trim().max(1000);

export const IssueLicenseRequest = z
  .object({
    companyId: Uuid,
    templateId: Uuid,
    config: ConfigJson.nullish().meta({ description: "Absent means {}" }),
    expiresAt: Timestamp.nullish().meta({
      description: "null: now + the template's defaultValidityDays (trial: the trial length)",
    }),
    offlineDays: z.int().nullish().meta({ description: "Clamped to 1..max; absent: the template's default" }),
    isTrial: z.boolean().default(false),
    hwBinding: HwBinding.nullish().meta({ description: "Absent: fixed with a fingerprint, none without" }),
    hwFingerprint: Fingerprint.nullish(),
  })
  .meta({ id: "IssueLicenseRequest" });
export type IssueLicenseRequest = z.infer<typeof IssueLicenseRequest>;

export const BulkIssueRequest = z
  .object({
    templateId: Uuid,
    items: z
      .array(z.object({ companyId: Uuid, config: ItemConfigJson.nullish() }))
      .meta({ description: `1..${BULK_MAX_ITEMS} items` }),
    config: ConfigJson.nullish().meta({ description: "Used by items without their own config" }),
    expiresAt: Timestamp.nullish(),
    offlineDays: z.int().nullish(),
    hwFingerprint: Fingerprint.nullish(),
    isTrial: z.boolean().default(false),
    hwBinding: HwBinding.nullish(),
  })
  .meta({ id: "BulkIssueRequest" });
export type BulkIssueRequest = z.infer<typeof BulkIssueRequest>;

export const LicenseIssueResponse = z
  .object({
    id: Uuid,
    licenseKey: z.string(),
    token: z.string().meta({ description: "JWS compact, EdDSA" }),
    publicKey: z.string().meta({ description: "Hex of the raw Ed25519 public key" }),
  })
  .meta({ id: "LicenseIssueResponse" });
export type LicenseIssueResponse = z.infer<typeof LicenseIssueResponse>;

export const BulkIssueResult = z
  .object({
    companyId: z.string(),
    licenseId: Uuid.nullable(),
    licenseKey: z.string().nullable(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
  })
  .meta({ id: "BulkIssueResult" });
export const BulkIssueResponse = z
  .object({
    requested: z.int(),
    succeeded: z.int(),
    failed: z.int(),
    results: z.array(BulkIssueResult),
  })
  .meta({ id: "BulkIssueResponse" });
export type BulkIssueResponse = z.infer<typeof BulkIssueResponse>;

export const LicenseResponse = z
  .object({
    id: Uuid,
    licenseKey: z.string(),
    companyId: Uuid,
    templateId: Uuid,
    status: LicenseStatus,
    config: z.string(),
    offlineDays: z.int(),
    currentVersion: z.int(),
    expiresAt: Timestamp,
    issuedAt: Timestamp,
    activatedAt: Timestamp.nullable(),
    lastHeartbeatAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    revocationReason: z.string().nullable(),
    isTrial: z.boolean(),
    hwBinding: HwBinding,
    hwFingerprint: z.string().nullable(),
  })
  .meta({ id: "LicenseResponse" });
export type LicenseResponse = z.infer<typeof LicenseResponse>;

export const LicenseSearchQuery = z.object({
  companyId: Uuid.optional(),
  templateId: Uuid.optional(),
  status: z
    .string()
    .max(50)
    .optional()
    .meta({ description: `${LICENSE_STATUSES.slice(0, -1).join(", ")} or ${LICENSE_STATUSES.at(-1)}` }),
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .meta({ description: "License key (or its prefix) or company name" }),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(LICENSE_PAGE_SIZE.max).default(LICENSE_PAGE_SIZE.default),
});
export type LicenseSearchQuery = z.infer<typeof LicenseSearchQuery>;

export const LicensePage = z
  .object({ items: z.array(LicenseResponse), total: z.int(), page: z.int(), pageSize: z.int() })
  .meta({ id: "LicensePage" });
export type LicensePage = z.infer<typeof LicensePage>;

export const RevokeLicenseRequest = z
  .object({ reason: Reason.nullish() })
  .meta({ id: "RevokeLicenseRequest" });
export const TransferLicenseRequest = z.object({ newCompanyId: Uuid }).meta({ id: "TransferLicenseRequest" });
export const RebindLicenseRequest = z
  .object({
    hwFingerprint: Fingerprint.nullable().meta({ description: "null releases the binding" }),
    reason: Reason.nullish(),
    hwBinding: HwBinding.nullish().meta({ description: "Forces the resulting mode" }),
  })
  .meta({ id: "RebindLicenseRequest" });
export type RebindLicenseRequest = z.infer<typeof RebindLicenseRequest>;

export const LicenseTransferResponse = z
  .object({
    licenseId: Uuid,
    licenseKey: z.string(),
    companyId: Uuid,
    currentVersion: z.int(),
    token: z.string(),
    publicKey: z.string(),
    deactivatedActivations: z.int(),
  })
  .meta({ id: "LicenseTransferResponse" });
export type LicenseTransferResponse = z.infer<typeof LicenseTransferResponse>;

export const LicensePublicKeyResponse = z
  .object({ publicKey: z.string() })
  .meta({ id: "LicensePublicKeyResponse" });

/** The body of a `.lic` file. */
export const LicenseFile = z
  .object({ licenseKey: z.string(), token: z.string(), publicKey: z.string() })
  .meta({ id: "LicenseFile" });
export type LicenseFile = z.infer<typeof LicenseFile>;
