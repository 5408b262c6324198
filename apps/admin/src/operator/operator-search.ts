import { z } from "zod";
import { id, page, text } from "../lib/search.ts";

export const OPERATOR_TABS = ["overview", "tenants", "licenses", "users"] as const;
export type OperatorTab = (typeof OPERATOR_TABS)[number];

/** The router reads `trial=true` as a boolean; a hand-written URL may still carry the string. */
const flag = z
  .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")])
  .optional()
  .catch(undefined);

/** The console's tab and the filters of its lists, as the URL carries them. */
export const OperatorSearch = z.object({
  tab: z.enum(OPERATOR_TABS).optional().catch(undefined),
  search: text,
  status: text,
  templateId: id,
  companyId: id,
  trial: flag,
  page,
});
export type OperatorSearch = z.infer<typeof OperatorSearch>;
