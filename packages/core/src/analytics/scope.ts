import { tables } from "@licensing/db";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import {
  assertCompanyFilterInScope,
  companyScopeFilter,
  inSubtree,
  visibleCompanyScope,
} from "../policy/index.ts";

/** Whose figures analytics count: the whole platform, or the companies listed (a subtree). */
export type AnalyticsScope = { all: true } | { all: false; companyIds: string[] };

/**
 * Spec §4 Analytics: an operator without `companyId` sees the whole platform; anyone else the subtree of
 * their membership; `companyId` narrows to that company's subtree and needs Viewer on it (outside the
 * visible subtree: `auth.company_out_of_scope`). The subtree's ids are resolved first, on the path index,
 * so the counting queries filter by concrete company ids.
 */
export async function analyticsScope(
  deps: Deps,
  actor: Actor,
  companyId: string | undefined,
): Promise<AnalyticsScope> {
  const c = tables.companies;
  let where;
  if (companyId) {
    const company = await assertCompanyFilterInScope(deps.reads, actor, companyId, "viewer");
    where = inSubtree(c.path, company.path);
  } else {
    const scope = await visibleCompanyScope(deps.reads, actor);
    if (scope.all) return { all: true };
    where = companyScopeFilter(scope, c.path);
  }
  const rows = await deps.reads.select({ id: c.id }).from(c).where(where);
  return { all: false, companyIds: rows.map((row) => row.id) };
}
