import { sql } from "drizzle-orm";
import {
  USAGE_WINDOW_DAYS,
  type DailyCount,
  type UsageQuery,
  type UsageResponse,
} from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import { DAY } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { rowsOf } from "../sql-rows.ts";
import { addDays, dayStart, daysBetween, utcDay } from "./days.ts";
import { rawUsage, uuidArray, type RawUsageRow, type UsageCounts } from "./raw-usage.ts";
import { analyticsScope } from "./scope.ts";
import { rolledThrough } from "./rollup.ts";

/** The usage window: `to` defaults to now, `from` to 30 days before `to`; at most 366 days (spec §8). */
export function usageWindow(query: Pick<UsageQuery, "from" | "to">, now: Date) {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - USAGE_WINDOW_DAYS.default * DAY);
  if (from > to) {
    fail("analytics.invalid_range", `from (${from.toISOString()}) is later than to (${to.toISOString()})`);
  }
  if (to.getTime() - from.getTime() > USAGE_WINDOW_DAYS.max * DAY) {
    fail("analytics.range_too_large", `The window is longer than ${USAGE_WINDOW_DAYS.max} days`);
  }
  return { from, to };
}

/**
 * GET /analytics/usage: per UTC day from the day of `from` to the day of `to`, zeros included. Days the
 * rollup job has closed come from `usage_daily`; later days are counted from the raw rows, so the answer
 * is exact whether or not the job is up to date (decision 0028).
 */
export async function getUsage(deps: Deps, actor: Actor, query: UsageQuery): Promise<UsageResponse> {
  const { from, to } = usageWindow(query, deps.clock.now());
  const scope = await analyticsScope(deps, actor, query.companyId);
  const days = daysBetween(utcDay(from), utcDay(to));
  const first = days[0]!;
  const last = days.at(-1)!;
  const byDay = new Map<string, UsageCounts>();
  const companyIds = scope.all ? null : scope.companyIds;
  if (!companyIds || companyIds.length > 0) {
    const rolled = await rolledThrough(deps.reads);
    const rows: RawUsageRow[] = [];
    if (rolled && rolled >= first) {
      rows.push(
        ...rowsOf<RawUsageRow>(
          await deps.reads.execute(sql`
            select day::text as "day", sum(activations)::int as "activations",
                   sum(heartbeats)::int as "heartbeats", sum(licenses_issued)::int as "licensesIssued"
              from usage_daily
             where day >= ${first}::date and day <= least(${last}::date, ${rolled}::date)
                   ${companyIds ? sql`and company_id = any(${uuidArray(companyIds)})` : sql``}
             group by day`),
        ),
      );
    }
    const tailFirst = rolled && rolled >= first ? addDays(rolled, 1) : first;
    if (tailFirst <= last) {
      const tail = rawUsage(dayStart(tailFirst), dayStart(addDays(last, 1)), {
        companyIds,
        byCompany: false,
      });
      rows.push(...rowsOf<RawUsageRow>(await deps.reads.execute(tail)));
    }
    for (const row of rows) byDay.set(row.day, row);
  }
  const series = (pick: (counts: UsageCounts) => number): DailyCount[] =>
    days.map((date) => {
      const counts = byDay.get(date);
      return { date, count: counts ? pick(counts) : 0 };
    });
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    activations: series((c) => c.activations),
    heartbeats: series((c) => c.heartbeats),
    licensesIssued: series((c) => c.licensesIssued),
  };
}
