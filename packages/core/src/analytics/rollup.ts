import { sql } from "drizzle-orm";
import type { Executor } from "@licensing/db";
import type { Deps } from "../deps.ts";
import { dayStart, addDays } from "./days.ts";
import { rolledThroughOf, runDailyRollup, type DailyRollup } from "./daily-rollup.ts";
import { rawUsage } from "./raw-usage.ts";

/** `usage_daily`: activations, heartbeats and issued licenses per day and company, from the raw rows. */
const usageRollup: DailyRollup = {
  stateTable: "usage_rollup_state",
  // Nothing can have happened before the oldest license was issued.
  firstDay: sql`select (min(issued_at) at time zone 'UTC')::date::text as day from licenses`,
  async writeDays(tx, start, end) {
    await tx.execute(sql`delete from usage_daily where day between ${start}::date and ${end}::date`);
    const counts = rawUsage(dayStart(start), dayStart(addDays(end, 1)), {
      companyIds: null,
      byCompany: true,
    });
    await tx.execute(sql`
      insert into usage_daily (day, company_id, activations, heartbeats, licenses_issued)
      select r."day"::date, r."companyId", r."activations", r."heartbeats", r."licensesIssued"
        from (${counts}) r`);
  },
};

/** The last day `usage_daily` holds (YYYY-MM-DD), or null before the first rollup. */
export const rolledThrough = (executor: Executor) => rolledThroughOf(executor, usageRollup);

/** The usage rollup job (`runDailyRollup`); returns the number of days written. */
export const rollupUsage = (deps: Deps) => runDailyRollup(deps, usageRollup);
