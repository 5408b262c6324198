import { Uuid } from "@licensing/contracts";

export const OPERATOR_TABS = ["overview", "tenants", "licenses", "users"] as const;
export type OperatorTab = (typeof OPERATOR_TABS)[number];

/** The console's tab and the filters of its lists, as the URL carries them. */
export interface OperatorSearch {
  tab?: OperatorTab | undefined;
  search?: string | undefined;
  status?: string | undefined;
  templateId?: string | undefined;
  companyId?: string | undefined;
  trial?: boolean | undefined;
  page?: number | undefined;
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

export function operatorSearch(search: Record<string, unknown>): OperatorSearch {
  const page = Number(search.page);
  // The router parses `trial=true` to a boolean; a hand-written URL may still carry the string.
  const trial = String(search.trial);
  return {
    tab: OPERATOR_TABS.find((t) => t === search.tab),
    search: text(search.search),
    status: text(search.status),
    templateId: Uuid.safeParse(search.templateId).data,
    companyId: Uuid.safeParse(search.companyId).data,
    trial: trial === "true" ? true : trial === "false" ? false : undefined,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}
