import { sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { LicenseStatus, OperatorOverviewResponse } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import { DAY } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { statusCondition } from "../licenses/search.ts";
import { assertOperator } from "../policy/index.ts";
import { rowsOf } from "../sql-rows.ts";
import { webhookOverview } from "./webhook-overview.ts";

type Counts = Omit<OperatorOverviewResponse, "webhookEndpoints" | "deliveryHealthLast24h">;

/**
 * GET /operator/overview: platform-wide counts, one statement for the database's part. License statuses
 * are the ones callers see (statusCondition: an Active license past expiry counts as expired).
 */
export async function getOverview(deps: Deps, actor: Actor): Promise<OperatorOverviewResponse> {
  assertOperator(actor);
  const now = deps.clock.now();
  const in30Days = new Date(now.getTime() + 30 * DAY);
  const l = tables.licenses;
  const status = (name: LicenseStatus) => sql`count(*) filter (where ${statusCondition(name, now)})::int`;
  const [counts] = rowsOf<Counts>(
    await deps.reads.execute(sql`
      select c.total_companies as "totalCompanies", c.root_companies as "rootCompanies",
             json_build_object('active', l.active, 'suspended', l.suspended, 'revoked', l.revoked,
                               'expired', l.expired, 'total', l.total) as "licenses",
             l.trial as "trialLicenses", a.live as "activeActivations", l.expiring as "licensesExpiringIn30Days",
             t.templates as "templates",
             json_build_object('active', k.active, 'inactive', k.inactive, 'retired', k.retired,
                               'total', k.total) as "signingKeys"
        from (select count(*)::int as total_companies,
                     count(*) filter (where parent_id is null)::int as root_companies
                from companies) c,
             (select ${status("Active")} as active, ${status("Suspended")} as suspended,
                     ${status("Revoked")} as revoked, ${status("Expired")} as expired, count(*)::int as total,
                     count(*) filter (where ${l.isTrial})::int as trial,
                     count(*) filter (where ${statusCondition("Active", now)}
                                        and ${l.expiresAt} <= ${in30Days.toISOString()}::timestamptz)::int
                       as expiring
                from licenses) l,
             (select count(*)::int as live from activations where status = 'active') a,
             (select count(*)::int as templates from templates) t,
             (select count(*) filter (where status = 'Active')::int as active,
                     count(*) filter (where status = 'Inactive')::int as inactive,
                     count(*) filter (where status = 'Retired')::int as retired,
                     count(*)::int as total
                from signing_keys) k`),
  );
  return { ...counts!, ...(await webhookOverview(deps, new Date(now.getTime() - DAY))) };
}
