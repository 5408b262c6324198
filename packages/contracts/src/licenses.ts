import { z } from "zod";
import { estimableTotal, MAX_JSON_DEPTH, Timestamp, Uuid } from "./common.ts";
import {
  FingerprintMatch,
  LeaseSeconds,
  MAX_CONFIG_JSON_LENGTH,
  MaxBorrowDays,
  MaxNewDevicesPerWindow,
  NewDeviceWindowDays,
  SeatModel,
  RevocationMode,
} from "./templates.ts";
import { HwBinding } from "./license-token.ts";
import { example } from "./examples.ts";

/** A license's status on the server (spec §3), as stored and as the panel shows it. */
export const LICENSE_STATUSES = ["Active", "Suspended", "Revoked", "Expired"] as const;
export const LicenseStatus = z.enum(LICENSE_STATUSES);
export type LicenseStatus = z.infer<typeof LicenseStatus>;

export const BULK_MAX_ITEMS = 200;
export const LICENSE_PAGE_SIZE = { default: 50, max: 200 } as const;

/**
 * Paging of the license lists (decision 0058): `page` (from the start, with OFFSET) or `after` (keyset: the
 * `nextCursor` of the page before), never both. `page` has no schema default so that the two can be told
 * apart; absent, it is 1, as its documented default says.
 */
export const licensePaging = {
  page: z.coerce.number().int().min(1).max(1_000_000).optional().meta({ default: 1 }),
  pageSize: z.coerce.number().int().min(1).max(LICENSE_PAGE_SIZE.max).default(LICENSE_PAGE_SIZE.default),
  after: z
    .string()
    .max(200)
    .optional()
    .meta({
      description:
        "The `nextCursor` of the previous page: the page that follows it, read from where that one ended whatever its depth. Not with `page`.",
      examples: ["MjAyNi0xMS0yNlQwOTozMDowMC4wMDAwMDBafDBmOGZhZDViLWQ5Y2ItNDY5Zi1hMTY1LTcwODY3NzI4OTUwZQ"],
    }),
};

/** What a page of a license list says about its place in the list, beside `items` and the total. */
export const licensePageFields = {
  page: z
    .int()
    .nullable()
    .meta({ description: "The page number asked for; null for a page asked by `after`" }),
  pageSize: z.int(),
  nextCursor: z.string().nullable().meta({ description: "`after` for the next page; null on the last page" }),
};

const configDescription = `JSON object with features (string array) and limits (object); at most ${MAX_CONFIG_JSON_LENGTH} characters, nested at most ${MAX_JSON_DEPTH} levels`;
const ConfigJson = z
  .string()
  .max(MAX_CONFIG_JSON_LENGTH)
  .meta({
    description: configDescription,
    examples: [example.config],
  });
/** A bulk item's config: its length is checked with the item, so a bad one fails only its own row. */
const ItemConfigJson = z.string().meta({ description: configDescription });
const Fingerprint = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .meta({ examples: [example.fingerprint] });
const Reason = z
  .string()
  .trim()
  .max(1000)
  .meta({ examples: [example.reason] });
const LicenseKey = z.string().meta({ examples: [example.licenseKey] });
const Token = z.string().meta({ description: "JWS compact, EdDSA", examples: [example.token] });
const PublicKeyHex = z
  .string()
  .meta({ description: "Hex of the raw Ed25519 public key", examples: [example.publicKeyHex] });
/** The certificate of the key that signed a token, when that key is not the template's root (decision 0049). */
export const SigningKeyCertificate = z.string().meta({
  description:
    "The template's root key's certificate (JWS) of the key that signed the token; present only when that key is not the root, the key programs are built with",
  examples: [example.certificate],
});

const CompanyId = Uuid.meta({ examples: [example.companyId] });
const TemplateId = Uuid.meta({ examples: [example.templateId] });
const LicenseId = Uuid.meta({ examples: [example.licenseId] });

/**
 * The device and seat terms a license takes from its template at issue unless the request overrides them
 * (decisions 0046, 0047, 0048).
 */
const termOverrides = {
  fingerprintMatch: FingerprintMatch.nullish().meta({ description: "Absent: the template's" }),
  maxNewDevicesPerWindow: MaxNewDevicesPerWindow.optional().meta({
    description: "Absent: the template's; null: no limit",
  }),
  newDeviceWindowDays: NewDeviceWindowDays.nullish().meta({ description: "Absent: the template's" }),
  seatModel: SeatModel.nullish().meta({ description: "Absent: the template's" }),
  leaseSeconds: LeaseSeconds.nullish().meta({ description: "Absent: the template's" }),
  maxBorrowDays: MaxBorrowDays.nullish().meta({ description: "Absent: the template's" }),
  revocation: RevocationMode.nullish().meta({ description: "Absent: the template's" }),
};

export const IssueLicenseRequest = z
  .object({
    companyId: CompanyId,
    templateId: TemplateId,
    config: ConfigJson.nullish().meta({ description: "Absent means {}" }),
    expiresAt: Timestamp.nullish().meta({
      description: "null: now + the template's defaultValidityDays (trial: the trial length)",
    }),
    offlineDays: z
      .int()
      .nullish()
      .meta({ description: "Clamped to 1..max; absent: the template's default", examples: [7] }),
    isTrial: z.boolean().default(false),
    hwBinding: HwBinding.nullish().meta({
      description: "Absent: fixed with a fingerprint, none without",
      examples: ["fixed"],
    }),
    hwFingerprint: Fingerprint.nullish(),
    ...termOverrides,
  })
  .meta({ id: "IssueLicenseRequest" });
export type IssueLicenseRequest = z.infer<typeof IssueLicenseRequest>;

/** One item of a bulk issue, as a caller sends it. */
export const BulkIssueItem = z.object({ companyId: CompanyId, config: ItemConfigJson.nullish() });
export type BulkIssueItem = z.output<typeof BulkIssueItem>;

/**
 * A bulk item that does not match BulkIssueItem (a companyId that is not a UUID, a config that is not a
 * string, an item that is not an object): it fails in its own result row, not the request (decision 0042).
 */
export interface MalformedBulkItem {
  malformed: true;
  /** The item's companyId when it sent a string, for its result row; otherwise null. */
  companyId: string | null;
  /** What is wrong, by field of the item (`companyId`, `config`; empty: the item itself). */
  problems: { path: string; message: string }[];
}

const stringAt = (value: unknown, key: string): string | null => {
  const field = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : null;
  return typeof field === "string" ? field : null;
};

/** Each item is checked on its own: one that does not match becomes a MalformedBulkItem, never a 400. */
const CheckedBulkItem = BulkIssueItem.transform((item): BulkIssueItem | MalformedBulkItem => item).catch(
  (ctx): MalformedBulkItem => ({
    malformed: true,
    companyId: stringAt(ctx.value, "companyId"),
    problems: (BulkIssueItem.safeParse(ctx.value).error?.issues ?? []).map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    })),
  }),
);

export const BulkIssueRequest = z
  .object({
    templateId: TemplateId,
    items: z.array(CheckedBulkItem).meta({
      description: `1..${BULK_MAX_ITEMS} items. An item that does not match (a companyId that is not a UUID, a config that is not a string) fails in its own result row; the others are issued.`,
    }),
    config: ConfigJson.nullish().meta({ description: "Used by items without their own config" }),
    expiresAt: Timestamp.nullish(),
    offlineDays: z.int().nullish(),
    hwFingerprint: Fingerprint.nullish(),
    isTrial: z.boolean().default(false),
    hwBinding: HwBinding.nullish(),
    ...termOverrides,
  })
  .meta({ id: "BulkIssueRequest" });
export type BulkIssueRequest = z.infer<typeof BulkIssueRequest>;

export const LicenseIssueResponse = z
  .object({
    id: LicenseId,
    licenseKey: LicenseKey,
    token: Token,
    publicKey: PublicKeyHex,
    certificate: SigningKeyCertificate.optional(),
  })
  .meta({ id: "LicenseIssueResponse" });
export type LicenseIssueResponse = z.infer<typeof LicenseIssueResponse>;

export const BulkIssueResult = z
  .object({
    companyId: z
      .string()
      .nullable()
      .meta({
        description: "The item's companyId as sent; null when the item had none that is a string",
        examples: [example.companyId],
      }),
    licenseId: LicenseId.nullable(),
    licenseKey: LicenseKey.nullable(),
    errorCode: z
      .string()
      .nullable()
      .meta({ examples: [null] }),
    errorMessage: z
      .string()
      .nullable()
      .meta({ examples: [null] }),
  })
  .meta({ id: "BulkIssueResult" });
export const BulkIssueResponse = z
  .object({
    requested: z.int().meta({ examples: [2] }),
    succeeded: z.int().meta({ examples: [2] }),
    failed: z.int().meta({ examples: [0] }),
    results: z.array(BulkIssueResult),
  })
  .meta({ id: "BulkIssueResponse" });
export type BulkIssueResponse = z.infer<typeof BulkIssueResponse>;

export const DeviceBudget = z
  .object({
    used: z.int().meta({ description: "New devices counted in the current window", examples: [1] }),
    max: z
      .int()
      .nullable()
      .meta({ description: "maxNewDevicesPerWindow; null: no limit", examples: [3] }),
    windowDays: z.int().meta({ examples: [30] }),
    resetsAt: Timestamp.nullable().meta({
      description: "When the oldest counted device leaves the window (used goes down); null when none counts",
    }),
  })
  .meta({ id: "DeviceBudget" });
export type DeviceBudget = z.infer<typeof DeviceBudget>;

export const LicenseResponse = z
  .object({
    id: LicenseId,
    licenseKey: LicenseKey,
    companyId: CompanyId,
    templateId: TemplateId,
    status: LicenseStatus,
    config: z.string().meta({ description: "JSON object as a string", examples: [example.config] }),
    offlineDays: z.int().meta({ examples: [7] }),
    currentVersion: z.int().meta({ examples: [1] }),
    expiresAt: Timestamp,
    issuedAt: Timestamp,
    activatedAt: Timestamp.nullable(),
    lastHeartbeatAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    revocationReason: z
      .string()
      .nullable()
      .meta({ examples: [null] }),
    isTrial: z.boolean(),
    hwBinding: HwBinding.meta({ examples: ["fixed"] }),
    hwFingerprint: z
      .string()
      .nullable()
      .meta({ examples: [example.fingerprint] }),
    fingerprintMatch: FingerprintMatch,
    revocation: RevocationMode,
    deviceBudget: DeviceBudget,
    seatModel: SeatModel,
    leaseSeconds: LeaseSeconds,
    maxBorrowDays: MaxBorrowDays,
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
    .meta({
      description: `${LICENSE_STATUSES.slice(0, -1).join(", ")} or ${LICENSE_STATUSES.at(-1)}`,
      examples: ["Active"],
    }),
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .meta({ description: "License key (or its prefix) or company name", examples: ["SVC-5CYM9"] }),
  ...licensePaging,
});
export type LicenseSearchQuery = z.infer<typeof LicenseSearchQuery>;

export const LicensePage = z
  .object({ items: z.array(LicenseResponse), ...estimableTotal, ...licensePageFields })
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
    licenseId: LicenseId,
    licenseKey: LicenseKey,
    companyId: CompanyId,
    currentVersion: z.int().meta({ examples: [2] }),
    token: Token,
    publicKey: PublicKeyHex,
    certificate: SigningKeyCertificate.optional(),
    deactivatedActivations: z.int().meta({ examples: [1] }),
  })
  .meta({ id: "LicenseTransferResponse" });
export type LicenseTransferResponse = z.infer<typeof LicenseTransferResponse>;

export const LicensePublicKeyResponse = z
  .object({ publicKey: PublicKeyHex })
  .meta({ id: "LicensePublicKeyResponse" });

/** The body of a `.lic` file. */
export const LicenseFile = z
  .object({
    licenseKey: LicenseKey,
    token: Token,
    publicKey: PublicKeyHex,
    certificate: SigningKeyCertificate.optional(),
  })
  .meta({ id: "LicenseFile" });
export type LicenseFile = z.infer<typeof LicenseFile>;
