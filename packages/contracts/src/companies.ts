import { z } from "zod";
import { Email, Timestamp, Uuid } from "./common.ts";
import { example } from "./examples.ts";

export const companyStatuses = ["Active", "Archived"] as const;
export const CompanyStatus = z.enum(companyStatuses);

/** 1–64 of [a-z0-9-], no leading or trailing hyphen (spec §2). Checked by core, which answers `company.invalid_slug`. */
export const COMPANY_SLUG_PATTERN = /^(?=.{1,64}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

export const CompanyResponse = z
  .object({
    id: Uuid,
    name: z.string().meta({ examples: [example.companyName] }),
    slug: z.string().meta({ examples: [example.companySlug] }),
    parentId: Uuid.nullable().meta({ description: "null for a root company" }),
    path: z
      .string()
      .meta({ description: "ids from the root, `/rootId/childId/`", examples: [example.companyPath] }),
    depth: z
      .int()
      .min(0)
      .meta({ description: "0 for a root company", examples: [1] }),
    status: CompanyStatus,
    contactEmail: z
      .string()
      .nullable()
      .meta({ examples: ["licensing@acme.example"] }),
    createdAt: Timestamp,
  })
  .meta({ id: "CompanyResponse" });
export type CompanyResponse = z.infer<typeof CompanyResponse>;

export const CreateCompanyRequest = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .meta({ examples: [example.companyName] }),
    slug: z
      .string()
      .max(1000)
      .meta({
        description: "1–64 of [a-z0-9-]; no leading or trailing hyphen",
        examples: [example.companySlug],
      }),
    parentId: Uuid.nullish().meta({ description: "absent or null creates a root company (operators only)" }),
    contactEmail: Email.nullish(),
  })
  .meta({ id: "CreateCompanyRequest" });
export type CreateCompanyRequest = z.infer<typeof CreateCompanyRequest>;

export const ReparentCompanyRequest = z
  .object({ newParentId: Uuid.nullable().meta({ description: "null moves the company to the root" }) })
  .meta({ id: "ReparentCompanyRequest" });
