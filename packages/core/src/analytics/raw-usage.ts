import { sql, type SQL } from "drizzle-orm";
import type { UsageDailyRow } from "@licensing/db";

export type UsageCounts = Omit<UsageDailyRow, "day" | "companyId">;

/** A row of `rawUsage`: a `usage_daily` row, whose company is null unless grouped by company. */
export type RawUsageRow = Omit<UsageDailyRow, "companyId"> & { companyId: string | null };

export interface RawUsageOptions {
  /** Count only these companies' events; null for the whole platform. */
  companyIds: string[] | null;
  /** One row per day and company (the rollup job) instead of one per day. */
  byCompany: boolean;
}

/** A uuid[] parameter, sent as one array literal (drizzle would spread a JS array into a list). */
export const uuidArray = (ids: string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

const day = (column: SQL) => sql`(${column} at time zone 'UTC')::date`;

/**
 * The one definition of usage, read from the raw tables for instants in [from, until): activations by
 * `activated_at` and the activation's company, heartbeats by `occurred_at` and their license's company,
 * licenses by `issued_at` and company. The rollup job stores it per day and company; usage reads it for
 * the days the job has not rolled up yet.
 */
export function rawUsage(from: Date, until: Date, options: RawUsageOptions): SQL {
  const ids = options.companyIds;
  const lower = from.toISOString();
  const upper = until.toISOString();
  const company = (column: SQL) => (options.byCompany ? sql`${column}` : sql`null::uuid`);
  const inCompanies = (column: SQL) => (ids ? sql`and ${column} = any(${uuidArray(ids)})` : sql``);
  // Heartbeats are the big table: they are counted per license first, and only those counts meet the
  // licenses table, when a company is needed at all.
  const heartbeats =
    options.byCompany || ids
      ? sql`select h.day, ${company(sql`l.company_id`)} as company_id, 0 as activations,
                   sum(h.n)::int as heartbeats, 0 as licenses_issued
              from (select ${day(sql`occurred_at`)} as day, license_id, count(*) as n
                      from heartbeat_records
                     where occurred_at >= ${lower}::timestamptz and occurred_at < ${upper}::timestamptz
                     group by 1, 2) h
              join licenses l on l.id = h.license_id ${inCompanies(sql`l.company_id`)}
             group by 1, 2`
      : sql`select ${day(sql`occurred_at`)} as day, null::uuid as company_id, 0 as activations,
                   count(*)::int as heartbeats, 0 as licenses_issued
              from heartbeat_records
             where occurred_at >= ${lower}::timestamptz and occurred_at < ${upper}::timestamptz
             group by 1`;
  return sql`
    select u.day::text as "day", u.company_id as "companyId",
           sum(u.activations)::int as "activations", sum(u.heartbeats)::int as "heartbeats",
           sum(u.licenses_issued)::int as "licensesIssued"
      from (
        select ${day(sql`activated_at`)} as day, ${company(sql`company_id`)} as company_id,
               count(*)::int as activations, 0 as heartbeats, 0 as licenses_issued
          from activations
         where activated_at >= ${lower}::timestamptz and activated_at < ${upper}::timestamptz
               ${inCompanies(sql`company_id`)}
         group by 1, 2
        union all
        ${heartbeats}
        union all
        select ${day(sql`issued_at`)} as day, ${company(sql`company_id`)} as company_id,
               0 as activations, 0 as heartbeats, count(*)::int as licenses_issued
          from licenses
         where issued_at >= ${lower}::timestamptz and issued_at < ${upper}::timestamptz
               ${inCompanies(sql`company_id`)}
         group by 1, 2
      ) u
     group by u.day, u.company_id`;
}
