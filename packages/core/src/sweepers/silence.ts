import { sql } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { liveSql } from "../licenses/live.ts";
import { publishEvents } from "../outbox/publish.ts";
import { rowsOf } from "../sql-rows.ts";

interface Silent {
  id: string;
  license_id: string;
  license_key: string;
  last_heartbeat_at: string | Date | null;
}

/** Heartbeat intervals of silence after which an activation counts as missing (docs/behaviour.md). */
export const MISSED_INTERVALS = 3;

/**
 * Emits license.heartbeat_missed once per silence: for each live activation of a live license (Active and
 * not past its expiry, licenses/live.ts) that has sent nothing for three heartbeat intervals, marks it
 * reported (a heartbeat clears the mark). A license past its expiry cannot heartbeat: its silence is no news;
 * nor is an offline activation's (decision 0050), which never heartbeats.
 * Claims rows with FOR UPDATE SKIP LOCKED so concurrent instances never emit twice.
 */
export async function detectMissedHeartbeats(deps: Deps, batchSize = 500): Promise<number> {
  const silenceMs = MISSED_INTERVALS * deps.config.licensing.heartbeatIntervalSeconds * 1000;
  let total = 0;
  for (;;) {
    const reported = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const since = new Date(now.getTime() - silenceMs).toISOString();
      const silent = rowsOf<Silent>(
        await tx.execute(sql`
        with claimed as (
          select a.id
            from activations a
            join licenses l on l.id = a.license_id
           where a.status = 'active'
             and a.silence_reported_at is null
             and a.mode = 'online'
             and coalesce(a.last_heartbeat_at, a.activated_at) <= ${since}::timestamptz
             and ${liveSql("l", sql`${now.toISOString()}::timestamptz`)}
           order by coalesce(a.last_heartbeat_at, a.activated_at)
           limit ${batchSize}
             for update of a skip locked
        )
        update activations a
           set silence_reported_at = ${now.toISOString()}::timestamptz
          from claimed, licenses l
         where a.id = claimed.id and l.id = a.license_id
        returning a.id, a.license_id, l.license_key, a.last_heartbeat_at`),
      );
      await publishEvents(
        tx,
        deps.clock,
        silent.map((r) => ({
          type: "license.heartbeat_missed" as const,
          data: {
            licenseId: r.license_id,
            licenseKey: r.license_key,
            activationId: r.id,
            lastHeartbeatAt:
              r.last_heartbeat_at === null ? null : new Date(r.last_heartbeat_at).toISOString(),
          },
        })),
      );
      return silent.length;
    });
    total += reported;
    if (reported < batchSize) return total;
  }
}
