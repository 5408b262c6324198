import { sql } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../sql-rows.ts";
import { addDays, dayStart, utcDay } from "./days.ts";
import { rawConcurrency } from "./raw-concurrency.ts";

/** Days rolled up per transaction, so a first run over a long history commits as it goes. */
const CHUNK_DAYS = 31;

const rollupState = tables.leaseRollupState;

/** The last day `lease_concurrency_daily` holds (YYYY-MM-DD), or null before the first rollup. */
export async function leasesRolledThrough(executor: Executor): Promise<string | null> {
  const [state] = await executor.select({ day: rollupState.rolledThrough }).from(rollupState);
  return state?.day ?? null;
}

/**
 * The lease rollup job: writes `lease_concurrency_daily` for every day that is over (up to yesterday, UTC,
 * by the clock) and not yet rolled up, from the lease spans, in chunks of CHUNK_DAYS days, each in its own
 * transaction with the state row locked (SKIP LOCKED: another instance rolling up at the same time is left
 * to it; a chunk deletes its days before writing them, so a rerun is harmless). A first run starts at the
 * day of the oldest span. A day that is over has final spans: a live span's `expires_at` lies ahead, a
 * release is stamped now, a comeback opens a new span. Returns the number of days written.
 */
export async function rollupLeases(deps: Deps): Promise<number> {
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
          await tx.execute(sql`select (min(acquired_at) at time zone 'UTC')::date::text as day from leases`),
        );
        start = oldest?.day ?? addDays(target, 1);
      }
      if (start > target) {
        if (!state.day) await tx.update(rollupState).set({ rolledThrough: target });
        return 0;
      }
      const candidate = addDays(start, CHUNK_DAYS - 1);
      const end = candidate < target ? candidate : target;
      await tx.execute(
        sql`delete from lease_concurrency_daily where day between ${start}::date and ${end}::date`,
      );
      const rows = rawConcurrency(dayStart(start), dayStart(addDays(end, 1)), { companyIds: null });
      await tx.execute(sql`
        insert into lease_concurrency_daily (day, company_id, template_id, peak_leases, full_seconds)
        select r."day"::date, r."companyId", r."templateId", sum(r."peakLeases"), sum(r."fullSeconds")
          from (${rows}) r
         group by 1, 2, 3`);
      await tx.update(rollupState).set({ rolledThrough: end });
      return Math.round((dayStart(end).getTime() - dayStart(start).getTime()) / 86_400_000) + 1;
    });
    if (days === 0) return written;
    written += days;
  }
}
