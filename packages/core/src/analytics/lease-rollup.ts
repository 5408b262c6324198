import { sql } from "drizzle-orm";
import type { Executor } from "@licensing/db";
import type { Deps } from "../deps.ts";
import { addDays, dayStart } from "./days.ts";
import { rolledThroughOf, runDailyRollup, type DailyRollup } from "./daily-rollup.ts";
import { rawConcurrency } from "./raw-concurrency.ts";

/**
 * `lease_concurrency_daily`: per day, company and template the peak of live leases and the seconds a pool
 * was full, from the lease spans. A day that is over has final spans: a live span's `expires_at` lies
 * ahead, a release is stamped now, a comeback opens a new span.
 */
const leaseRollup: DailyRollup = {
  stateTable: "lease_rollup_state",
  firstDay: sql`select (min(acquired_at) at time zone 'UTC')::date::text as day from leases`,
  async writeDays(tx, start, end) {
    await tx.execute(
      sql`delete from lease_concurrency_daily where day between ${start}::date and ${end}::date`,
    );
    const rows = rawConcurrency(dayStart(start), dayStart(addDays(end, 1)), { companyIds: null });
    await tx.execute(sql`
      insert into lease_concurrency_daily (day, company_id, template_id, peak_leases, full_seconds)
      select r."day"::date, r."companyId", r."templateId", sum(r."peakLeases"), sum(r."fullSeconds")
        from (${rows}) r
       group by 1, 2, 3`);
  },
};

/** The last day `lease_concurrency_daily` holds (YYYY-MM-DD), or null before the first rollup. */
export const leasesRolledThrough = (executor: Executor) => rolledThroughOf(executor, leaseRollup);

/** The lease rollup job (`runDailyRollup`); returns the number of days written. */
export const rollupLeases = (deps: Deps) => runDailyRollup(deps, leaseRollup);
