import { sql, type SQL } from "drizzle-orm";
import type { Executor, Tx } from "@licensing/db";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../sql-rows.ts";
import { addDays, dayStart, utcDay } from "./days.ts";

/** Days rolled up per transaction, so a first run over a long history commits as it goes. */
const CHUNK_DAYS = 31;

/** A table of per-day figures kept up to yesterday from the raw rows. */
export interface DailyRollup {
  /** Its one-row state table (`rolled_through`: the last day written, null before the first run). */
  stateTable: "usage_rollup_state" | "lease_rollup_state";
  /** A query for the first day anything can have happened on (`day`, YYYY-MM-DD, or null). */
  firstDay: SQL;
  /** Deletes and writes the days from `start` to `end` (YYYY-MM-DD, inclusive), so a rerun is harmless. */
  writeDays(tx: Tx, start: string, end: string): Promise<void>;
}

/** The last day a rollup holds (YYYY-MM-DD), or null before its first run. */
export async function rolledThroughOf(executor: Executor, rollup: DailyRollup): Promise<string | null> {
  const [state] = rowsOf<{ day: string | null }>(
    await executor.execute(sql`select rolled_through::text as day from ${sql.identifier(rollup.stateTable)}`),
  );
  return state?.day ?? null;
}

/**
 * Runs a rollup job: writes every day that is over (up to yesterday, UTC, by the clock) and not yet rolled
 * up, in chunks of CHUNK_DAYS days, each in its own transaction with the state row locked (SKIP LOCKED:
 * another instance rolling up at the same time is left to it). A first run starts at `firstDay`. Returns
 * the number of days written.
 */
export async function runDailyRollup(deps: Deps, rollup: DailyRollup): Promise<number> {
  const target = addDays(utcDay(deps.clock.now()), -1);
  const state = sql.identifier(rollup.stateTable);
  let written = 0;
  for (;;) {
    const days = await deps.db.transaction(async (tx) => {
      const [locked] = rowsOf<{ day: string | null }>(
        await tx.execute(sql`select rolled_through::text as day from ${state} for update skip locked`),
      );
      if (!locked) return 0;
      let start = locked.day && addDays(locked.day, 1);
      if (!start) {
        const [first] = rowsOf<{ day: string | null }>(await tx.execute(rollup.firstDay));
        start = first?.day ?? addDays(target, 1);
      }
      if (start > target) {
        if (!locked.day) await tx.execute(sql`update ${state} set rolled_through = ${target}::date`);
        return 0;
      }
      const candidate = addDays(start, CHUNK_DAYS - 1);
      const end = candidate < target ? candidate : target;
      await rollup.writeDays(tx, start, end);
      await tx.execute(sql`update ${state} set rolled_through = ${end}::date`);
      return Math.round((dayStart(end).getTime() - dayStart(start).getTime()) / 86_400_000) + 1;
    });
    if (days === 0) return written;
    written += days;
  }
}
