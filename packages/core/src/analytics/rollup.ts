import { sql } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../sql-rows.ts";
import { addDays, dayStart, utcDay } from "./days.ts";
import { rawUsage } from "./raw-usage.ts";

/** Days rolled up per transaction, so a first run over a long history commits as it goes. */
const CHUNK_DAYS = 31;

const rollupState = tables.usageRollupState;

/** The last day `usage_daily` holds (YYYY-MM-DD), or null before the first rollup. */
export async function rolledThrough(executor: Executor): Promise<string | null> {
  const [state] = await executor.select({ day: rollupState.rolledThrough }).from(rollupState);
  return state?.day ?? null;
}

/**
 * The rollup job: writes `usage_daily` for every day that is over (up to yesterday, UTC, by the clock)
 * and not yet rolled up, from the raw rows, in chunks of CHUNK_DAYS days, each in its own transaction
 * with the state row locked (SKIP LOCKED: another instance rolling up at the same time is left to it).
 * A first run starts at the day of the oldest license, before which nothing can have happened.
 * Returns the number of days written.
 */
export async function rollupUsage(deps: Deps): Promise<number> {
  const target = addDays(utcDay(deps.clock.now()), -1);
  let written = 0;
  for (;;) {
    const days = await deps.db.transaction(async (tx) => {
      const [state] = await tx
        .select({ day: rollupState.rolledThrough })
        .from(rollupState)
        .for("update", { skipLocked: true });
      if (!state) return 0;
      let start = state.day && addDays(state.day, 1);
      if (!start) {
        const [oldest] = rowsOf<{ day: string | null }>(
          await tx.execute(sql`select (min(issued_at) at time zone 'UTC')::date::text as day from licenses`),
        );
        start = oldest?.day ?? addDays(target, 1);
      }
      if (start > target) {
        if (!state.day) await tx.update(rollupState).set({ rolledThrough: target });
        return 0;
      }
      const candidate = addDays(start, CHUNK_DAYS - 1);
      const end = candidate < target ? candidate : target;
      await tx.execute(sql`delete from usage_daily where day between ${start}::date and ${end}::date`);
      const counts = rawUsage(dayStart(start), dayStart(addDays(end, 1)), {
        companyIds: null,
        byCompany: true,
      });
      await tx.execute(sql`
        insert into usage_daily (day, company_id, activations, heartbeats, licenses_issued)
        select r."day"::date, r."companyId", r."activations", r."heartbeats", r."licensesIssued"
          from (${counts}) r`);
      await tx.update(rollupState).set({ rolledThrough: end });
      return daysBetweenCount(start, end);
    });
    if (days === 0) return written;
    written += days;
  }
}

const daysBetweenCount = (first: string, last: string) =>
  Math.round((dayStart(last).getTime() - dayStart(first).getTime()) / 86_400_000) + 1;
