import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { OperatorLicensePage, OperatorLicenseQuery } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { licensePage } from "../licenses/page.ts";
import { parseStatus, statusCondition } from "../licenses/search.ts";
import { assertCompanyFilterInScope, assertOperator } from "../policy/index.ts";

const l = tables.licenses;

/**
 * GET /operator/licenses: every license, newest first, filtered by status (as callers see it),
 * template, company (that company's own licenses, as in /licenses) and trial. Paged like /licenses:
 * the page's ids come from an index, `total` is exact up to a bound (decision 0005).
 */
export async function listAllLicenses(
  deps: Deps,
  actor: Actor,
  query: OperatorLicenseQuery,
): Promise<OperatorLicensePage> {
  assertOperator(actor);
  const now = deps.clock.now();
  const status = query.status === undefined ? undefined : parseStatus(query.status);
  if (query.companyId) await assertCompanyFilterInScope(deps.reads, actor, query.companyId);
  const where = and(
    query.companyId ? eq(l.companyId, query.companyId) : undefined,
    query.templateId ? eq(l.templateId, query.templateId) : undefined,
    status ? statusCondition(status, now) : undefined,
    query.trial === undefined ? undefined : eq(l.isTrial, query.trial),
  );
  const { rows, ...place } = await licensePage(
    deps,
    where,
    query,
    deps.reads
      .select({
        license: l,
        companyName: tables.companies.name,
        productCode: tables.templates.productCode,
      })
      .from(l)
      .innerJoin(tables.companies, eq(tables.companies.id, l.companyId))
      .innerJoin(tables.templates, eq(tables.templates.id, l.templateId))
      .$dynamic(),
  );
  return {
    items: rows.map(({ license, companyName, productCode }) => ({
      id: license.id,
      licenseKey: license.licenseKey,
      companyId: license.companyId,
      companyName,
      templateId: license.templateId,
      productCode,
      status: effectiveStatus(license, now),
      isTrial: license.isTrial,
      issuedAt: license.issuedAt.toISOString(),
      expiresAt: license.expiresAt.toISOString(),
      activatedAt: license.activatedAt?.toISOString() ?? null,
      revokedAt: license.revokedAt?.toISOString() ?? null,
    })),
    ...place,
    pageSize: query.pageSize,
  };
}
