import { sql, type SQL } from "drizzle-orm";
import { TOP_COMPANIES, type DistributionQuery, type DistributionResponse } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../sql-rows.ts";
import { uuidArray } from "./raw-usage.ts";
import { analyticsScope } from "./scope.ts";

type TemplateCount = DistributionResponse["licensesByTemplate"][number];
type CompanyCount = DistributionResponse["topCompaniesByActivations"][number];

/**
 * GET /analytics/distribution: licenses (any status) and active activations per template, and the
 * companies with the most active activations, within the analytics scope. Counted when asked: live
 * activations come from the partial index on activations (company, template), licenses from the
 * license indexes that lead with the company or the template (decision 0028).
 */
export async function getDistribution(
  deps: Deps,
  actor: Actor,
  query: DistributionQuery,
): Promise<DistributionResponse> {
  const scope = await analyticsScope(deps, actor, query.companyId);
  if (!scope.all && scope.companyIds.length === 0) {
    return { licensesByTemplate: [], activationsByTemplate: [], topCompaniesByActivations: [] };
  }
  const inScope = scope.all ? sql`` : sql`and company_id = any(${uuidArray(scope.companyIds)})`;
  const perTemplate = async (counted: SQL) =>
    rowsOf<TemplateCount>(
      await deps.reads.execute(sql`
        select t.id as "templateId", t.product_code as "productCode", t.name as "templateName", x.n as "count"
          from (${counted}) x join templates t on t.id = x.template_id
         order by x.n desc, t.name, t.id`),
    );
  const [licensesByTemplate, activationsByTemplate, topCompanies] = await Promise.all([
    perTemplate(sql`select template_id, count(*)::int as n from licenses where true ${inScope} group by 1`),
    perTemplate(
      sql`select template_id, count(*)::int as n from activations where status = 'active' ${inScope} group by 1`,
    ),
    deps.reads.execute(sql`
      select c.id as "companyId", c.name as "companyName", x.n as "count"
        from (select company_id, count(*)::int as n from activations
               where status = 'active' ${inScope} group by 1) x
        join companies c on c.id = x.company_id
       order by x.n desc, c.name, c.id
       limit ${TOP_COMPANIES}`),
  ]);
  return {
    licensesByTemplate,
    activationsByTemplate,
    topCompaniesByActivations: rowsOf<CompanyCount>(topCompanies),
  };
}
