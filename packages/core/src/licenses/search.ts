import { and, count, desc, eq, gt, ilike, like, lte, or, type SQL } from "drizzle-orm";
import { tables } from "@licensing/db";
import {
  LicenseStatus,
  type LicensePage,
  type LicenseSearchQuery,
  type LicenseStatus as Status,
} from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { assertCompanyFilterInScope, companyScopeFilter, visibleCompanyScope } from "../policy/index.ts";
import { toLicenseResponse } from "./mappers.ts";

const l = tables.licenses;
const c = tables.companies;

/** Parses the status filter case-insensitively; anything else is `license.invalid_status`. */
function parseStatus(value: string): Status {
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
function statusCondition(status: Status, now: Date): SQL | undefined {
  if (status === "Active") return and(eq(l.status, "Active"), gt(l.expiresAt, now));
  if (status === "Expired")
    return or(eq(l.status, "Expired"), and(eq(l.status, "Active"), lte(l.expiresAt, now)));
  return eq(l.status, status);
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `search` matches a license key or its prefix (any case) or part of the company name. */
function searchCondition(search: string): SQL | undefined {
  const keyPrefix = `${escapeLike(search.toUpperCase())}%`;
  return or(like(l.licenseKey, keyPrefix), ilike(c.name, `%${escapeLike(search)}%`));
}

/** GET /licenses: newest first, within what the actor can see; filters combine with AND. */
export async function searchLicenses(
  deps: Deps,
  actor: Actor,
  query: LicenseSearchQuery,
): Promise<LicensePage> {
  const now = deps.clock.now();
  const status = query.status === undefined ? undefined : parseStatus(query.status);
  if (query.companyId) await assertCompanyFilterInScope(deps.db, actor, query.companyId);
  const scope = await visibleCompanyScope(deps.db, actor);
  const where = and(
    companyScopeFilter(scope, c.path),
    query.companyId ? eq(l.companyId, query.companyId) : undefined,
    query.templateId ? eq(l.templateId, query.templateId) : undefined,
    status ? statusCondition(status, now) : undefined,
    query.search ? searchCondition(query.search) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    deps.db
      .select({ license: l })
      .from(l)
      .innerJoin(c, eq(c.id, l.companyId))
      .where(where)
      .orderBy(desc(l.issuedAt), desc(l.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    deps.db.select({ n: count() }).from(l).innerJoin(c, eq(c.id, l.companyId)).where(where),
  ]);
  return {
    items: rows.map((r) => toLicenseResponse(r.license, now)),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
