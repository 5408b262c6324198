import { and, eq, ilike, inArray, like, or, sql, type SQL } from "drizzle-orm";
import { tables } from "@licensing/db";
import {
  LicenseStatus,
  type LicensePage,
  type LicenseSearchQuery,
  type LicenseStatus as Status,
} from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import { isLicenseKeyPrefix } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import {
  assertCompanyFilterInScope,
  companyScopeFilter,
  visibleCompanyScope,
  type CompanyScope,
} from "../policy/index.ts";
import { liveCondition, pastExpiryCondition } from "./live.ts";
import { toLicenseResponses } from "./mappers.ts";
import { licensePage, readPaging } from "./page.ts";

const l = tables.licenses;
const c = tables.companies;

/** Parses the status filter case-insensitively; anything else is `license.invalid_status`. */
export function parseStatus(value: string): Status {
  const status = LicenseStatus.options.find((s) => s.toLowerCase() === value.trim().toLowerCase());
  return (
    status ??
    fail(
      "license.invalid_status",
      `Unknown status "${value}"; use one of ${LicenseStatus.options.join(", ")}`,
    )
  );
}

/** Matches the status a caller sees (see effectiveStatus): an Active license past expiry is Expired. */
export function statusCondition(status: Status, now: Date): SQL | undefined {
  if (status === "Active") return liveCondition(now);
  if (status === "Expired") return or(eq(l.status, "Expired"), pastExpiryCondition(now));
  return eq(l.status, status);
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

const companyIn = (companies: Array<{ id: string }>) =>
  inArray(
    l.companyId,
    companies.map((row) => row.id),
  );

/**
 * `search` matches a license key or its prefix (any case) or part of the company name, within the scope.
 * Companies are few, so the matching ones are found first and licenses are then filtered by company id:
 * both halves use an index, where `OR company.name ILIKE` across a join meant reading every license.
 * Null when nothing can match.
 */
async function searchCondition(deps: Deps, scope: CompanyScope, search: string): Promise<SQL | null> {
  const upper = search.toUpperCase();
  const byKey = isLicenseKeyPrefix(upper) ? like(l.licenseKey, `${upper}%`) : undefined;
  const companies = await deps.reads
    .select({ id: c.id })
    .from(c)
    .where(and(ilike(c.name, `%${escapeLike(search)}%`), companyScopeFilter(scope, c.path)));
  const byCompany = companies.length ? companyIn(companies) : undefined;
  return byKey || byCompany ? or(byKey, byCompany)! : null;
}

/**
 * Licenses of the companies the actor may see; none for operators. The ids are resolved first (one
 * query on the path index) so the planner sees concrete company ids and their row counts.
 */
async function scopeCondition(deps: Deps, scope: CompanyScope): Promise<SQL | undefined> {
  if (scope.all) return undefined;
  const companies = await deps.reads.select({ id: c.id }).from(c).where(companyScopeFilter(scope, c.path));
  return companies.length ? companyIn(companies) : sql`false`;
}

/**
 * GET /licenses: newest first, within what the actor can see; filters combine with AND. `total` is exact
 * up to EXACT_TOTAL_LIMIT matches and an estimate past it (decision 0005).
 */
export async function searchLicenses(
  deps: Deps,
  actor: Actor,
  query: LicenseSearchQuery,
): Promise<LicensePage> {
  const now = deps.clock.now();
  const { page } = readPaging(query);
  const status = query.status === undefined ? undefined : parseStatus(query.status);
  if (query.companyId) await assertCompanyFilterInScope(deps.reads, actor, query.companyId);
  const scope = await visibleCompanyScope(deps.reads, actor);
  const search = query.search ? await searchCondition(deps, scope, query.search) : undefined;
  const empty = { items: [], total: 0, totalIsEstimate: false, pageSize: query.pageSize, nextCursor: null };
  if (search === null) return { ...empty, page };
  const where = and(
    // A companyId filter has been checked against the scope already.
    query.companyId ? eq(l.companyId, query.companyId) : await scopeCondition(deps, scope),
    query.templateId ? eq(l.templateId, query.templateId) : undefined,
    status ? statusCondition(status, now) : undefined,
    search,
  );
  const { rows, ...place } = await licensePage(deps, where, query, deps.reads.select().from(l).$dynamic());
  return {
    ...empty,
    ...place,
    items: await toLicenseResponses(deps.reads, rows, now),
  };
}
