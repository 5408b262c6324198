import { z } from "zod";
import { estimableTotal, Timestamp, Uuid } from "./common.ts";
import { example } from "./examples.ts";
import { CompanyStatus } from "./companies.ts";
import { LICENSE_PAGE_SIZE, LicenseStatus, licensePageFields, licensePaging } from "./licenses.ts";

const count = z.int().min(0);
const paging = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(LICENSE_PAGE_SIZE.max).default(LICENSE_PAGE_SIZE.default),
};

/** Webhook figures of the overview. */
export const OperatorWebhookOverview = z.object({
  webhookEndpoints: count.meta({ description: "Active webhook endpoints" }),
  deliveryHealthLast24h: z
    .object({ pending: count, failed: count, success: count })
    .meta({ description: "Deliveries created in the last 24 hours, by status" }),
});
export type OperatorWebhookOverview = z.infer<typeof OperatorWebhookOverview>;

export const OperatorOverviewResponse = z
  .object({
    totalCompanies: count.meta({ description: "Every company, archived ones included" }),
    rootCompanies: count,
    licenses: z
      .object({ active: count, suspended: count, revoked: count, expired: count, total: count })
      .meta({ description: "By the status a caller sees: an Active license past its expiry is expired" }),
    trialLicenses: count.meta({ description: "Trial licenses, whatever their status" }),
    activeActivations: count,
    licensesExpiringIn30Days: count.meta({ description: "Active licenses whose expiry is within 30 days" }),
    templates: count.meta({ description: "Every template, archived ones included" }),
    signingKeys: z
      .object({ active: count, inactive: count, retired: count, total: count })
      .meta({ description: "Signing keys of every template, by status" }),
    ...OperatorWebhookOverview.shape,
  })
  .meta({ id: "OperatorOverviewResponse" });
export type OperatorOverviewResponse = z.infer<typeof OperatorOverviewResponse>;

export const OperatorTenantQuery = z.object({
  search: z.string().trim().max(200).optional().meta({ description: "Part of the name or slug, any case" }),
  ...paging,
});
export type OperatorTenantQuery = z.infer<typeof OperatorTenantQuery>;

export const OperatorTenantResponse = z
  .object({
    id: Uuid,
    name: z.string().meta({ examples: ["Acme"] }),
    slug: z.string().meta({ examples: ["acme"] }),
    status: CompanyStatus,
    contactEmail: z
      .string()
      .nullable()
      .meta({ examples: ["licensing@acme.example"] }),
    descendantCount: count.meta({ description: "Every company below this root, at any depth" }),
    licenseCount: count.meta({ description: "Licenses of this root and every company below it" }),
    createdAt: Timestamp,
  })
  .meta({ id: "OperatorTenantResponse" });
export type OperatorTenantResponse = z.infer<typeof OperatorTenantResponse>;

export const OperatorTenantPage = z
  .object({ items: z.array(OperatorTenantResponse), total: count, page: z.int(), pageSize: z.int() })
  .meta({ id: "OperatorTenantPage" });
export type OperatorTenantPage = z.infer<typeof OperatorTenantPage>;

const Trial = z
  .enum(["true", "false"])
  .transform((v) => v === "true")
  .meta({ description: "true: trial licenses only; false: no trial licenses" });

export const OperatorLicenseQuery = z.object({
  status: z.string().max(50).optional().meta({ description: "Active, Suspended, Revoked or Expired" }),
  templateId: Uuid.optional(),
  companyId: Uuid.optional().meta({ description: "Licenses of this company (not of its children)" }),
  trial: z.union([z.boolean(), Trial]).optional(),
  ...licensePaging,
});
export type OperatorLicenseQuery = z.infer<typeof OperatorLicenseQuery>;

export const OperatorLicenseResponse = z
  .object({
    id: Uuid,
    licenseKey: z.string().meta({ examples: [example.licenseKey] }),
    companyId: Uuid,
    companyName: z.string().meta({ examples: [example.companyName] }),
    templateId: Uuid,
    productCode: z.string().meta({ examples: [example.productCode] }),
    status: LicenseStatus,
    isTrial: z.boolean(),
    issuedAt: Timestamp,
    expiresAt: Timestamp,
    activatedAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: "OperatorLicenseResponse" });
export type OperatorLicenseResponse = z.infer<typeof OperatorLicenseResponse>;

export const OperatorLicensePage = z
  .object({ items: z.array(OperatorLicenseResponse), ...estimableTotal, ...licensePageFields })
  .meta({ id: "OperatorLicensePage" });
export type OperatorLicensePage = z.infer<typeof OperatorLicensePage>;
