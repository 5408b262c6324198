import { z } from "zod";
import { id, page, text } from "../lib/search.ts";

/** The license list's filters and page, as the URL carries them. */
export const LicenseSearch = z.object({
  search: text,
  status: text,
  companyId: id,
  templateId: id,
  page,
});
export type LicenseSearch = z.infer<typeof LicenseSearch>;
