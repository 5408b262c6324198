import { sql } from "drizzle-orm";
import { DAY } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../sql-rows.ts";
import { utcDay } from "./days.ts";

/** Monthly heartbeat partitions kept ready ahead of the current month. */
export const MONTHS_AHEAD = 2;

export interface PartitionRun {
  created: string[];
  dropped: string[];
}

/**
 * The partition job (decision 0027): creates the heartbeat partitions of this month and the next
 * MONTHS_AHEAD ones (by the clock), and drops those that ended more than HEARTBEAT_RETENTION_DAYS ago,
 * with the default partition's rows that old. Partitions are named `heartbeat_records_pYYYYMM`; the SQL
 * functions of migration 0011 do the work, so the migration and the job share one definition.
 */
export async function maintainHeartbeatPartitions(deps: Deps): Promise<PartitionRun> {
  const now = deps.clock.now();
  const created: string[] = [];
  for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead++) {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
    const [row] = rowsOf<{ created: boolean }>(
      await deps.db.execute(sql`select heartbeat_partition_create(${utcDay(month)}::date) as created`),
    );
    if (row?.created) created.push(`heartbeat_records_p${utcDay(month).slice(0, 7).replace("-", "")}`);
  }
  const cutoff = new Date(now.getTime() - deps.config.analytics.heartbeatRetentionDays * DAY);
  const dropped = rowsOf<{ name: string }>(
    await deps.db.execute(
      sql`select name from heartbeat_partitions_drop_before(${cutoff.toISOString()}::timestamptz) as name`,
    ),
  ).map((row) => row.name);
  return { created, dropped };
}
