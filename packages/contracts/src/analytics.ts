import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";
import { example } from "./examples.ts";

/** Spec §8: the usage window. */
export const USAGE_WINDOW_DAYS = { default: 30, max: 366 } as const;
export const TOP_COMPANIES = 10;

// Windows reach back from `to` by days; years outside 1970..9999 cannot be stored or printed as ISO 8601.
const isInSupportedYears = (value: string) => {
  const year = Number(value.slice(0, 4));
  return year >= 1970 && year <= 9999;
};

const Instant = z
  .union([Timestamp, z.iso.date()])
  .refine(isInSupportedYears, "must fall between the years 1970 and 9999")
  .meta({ description: "ISO 8601 timestamp, or a date (YYYY-MM-DD) meaning its start, UTC" });

export const UsageQuery = z.object({
  from: Instant.optional().meta({ description: `Default: \`to\` minus ${USAGE_WINDOW_DAYS.default} days` }),
  to: Instant.optional().meta({ description: "Default: now" }),
  companyId: Uuid.optional().meta({ description: "That company and its subtree; needs Viewer on it" }),
});
export type UsageQuery = z.infer<typeof UsageQuery>;

export const DailyCount = z
  .object({ date: z.iso.date().meta({ description: "UTC day, YYYY-MM-DD" }), count: z.int().min(0) })
  .meta({ id: "DailyCount" });
export type DailyCount = z.infer<typeof DailyCount>;

const Series = z
  .array(DailyCount)
  .meta({ description: "One item per UTC day from the day of `from` to the day of `to`, zeros included" });

export const UsageResponse = z
  .object({
    from: Timestamp,
    to: Timestamp,
    activations: Series.meta({ description: "New activations (machines) per day" }),
    heartbeats: Series.meta({ description: "Accepted heartbeats per day" }),
    licensesIssued: Series.meta({ description: "Licenses issued per day" }),
  })
  .meta({ id: "UsageResponse", description: "Each item counts its whole UTC day." });
export type UsageResponse = z.infer<typeof UsageResponse>;

export const DistributionQuery = z.object({
  companyId: Uuid.optional().meta({ description: "That company and its subtree; needs Viewer on it" }),
});
export type DistributionQuery = z.infer<typeof DistributionQuery>;

export const TemplateCount = z
  .object({
    templateId: Uuid,
    productCode: z.string().meta({ examples: [example.productCode] }),
    templateName: z.string().meta({ examples: [example.templateName] }),
    count: z
      .int()
      .min(0)
      .meta({ examples: [42] }),
  })
  .meta({ id: "TemplateCount" });
export const CompanyCount = z
  .object({
    companyId: Uuid,
    companyName: z.string().meta({ examples: [example.companyName] }),
    count: z
      .int()
      .min(0)
      .meta({ examples: [17] }),
  })
  .meta({ id: "CompanyCount" });

export const DistributionResponse = z
  .object({
    licensesByTemplate: z
      .array(TemplateCount)
      .meta({ description: "Licenses of any status per template, most first" }),
    activationsByTemplate: z
      .array(TemplateCount)
      .meta({ description: "Active activations per template, most first" }),
    topCompaniesByActivations: z
      .array(CompanyCount)
      .meta({ description: `The ${TOP_COMPANIES} companies with the most active activations` }),
  })
  .meta({ id: "DistributionResponse" });
export type DistributionResponse = z.infer<typeof DistributionResponse>;

export const ConcurrencyQuery = UsageQuery.extend({
  templateId: Uuid.optional().meta({ description: "Only that template's licenses" }),
});
export type ConcurrencyQuery = z.infer<typeof ConcurrencyQuery>;

export const ConcurrencyDay = z
  .object({
    date: z.iso.date().meta({ description: "UTC day, YYYY-MM-DD" }),
    peakLeases: z
      .int()
      .min(0)
      .meta({
        description:
          "The sum over the floating licenses in scope of each one's peak of simultaneously live leases that day (for one license: its peak)",
        examples: [8],
      }),
    fullSeconds: z
      .int()
      .min(0)
      .meta({
        description:
          "Seconds that day during which a license had all its seats leased (live leases ≥ maxSeats), summed over the licenses in scope",
        examples: [5400],
      }),
  })
  .meta({ id: "ConcurrencyDay" });
export type ConcurrencyDay = z.infer<typeof ConcurrencyDay>;

export const ConcurrencyResponse = z
  .object({
    from: Timestamp,
    to: Timestamp,
    maxSeats: z
      .int()
      .min(0)
      .meta({
        description:
          "The sum of `limits.maxSeats` of the Active floating licenses in scope now (those without a seat limit add nothing): the line to chart the peaks against",
        examples: [10],
      }),
    days: z.array(ConcurrencyDay).meta({
      description: "One item per UTC day from the day of `from` to the day of `to`, zeros included",
    }),
  })
  .meta({
    id: "ConcurrencyResponse",
    description: "Floating seats per UTC day (decision 0048); today counts up to now.",
  });
export type ConcurrencyResponse = z.infer<typeof ConcurrencyResponse>;
