import { sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { Deps } from "../deps.ts";
import type { WebhookQueueFigures } from "../metrics/metrics.ts";
import { rowsOf } from "../sql-rows.ts";

const d = tables.webhookDeliveries;
const e = tables.webhookEndpoints;

/**
 * The webhook queue as the metrics show it: pending deliveries of active endpoints due now (what the
 * dispatcher should be sending) or scheduled for a later retry, and how long the oldest due one waited.
 * Deliveries of inactive endpoints wait for their endpoint and are not counted. Reads the partial index of
 * pending deliveries (`webhook_deliveries_due`).
 */
export async function webhookQueueFigures(deps: Deps): Promise<WebhookQueueFigures> {
  const now = deps.clock.now();
  const [row] = rowsOf<{ due: string | number; scheduled: string | number; oldest: string | Date | null }>(
    await deps.db.execute(sql`
      select count(*) filter (where p.next_attempt_at <= ${now}) as due,
             count(*) filter (where p.next_attempt_at > ${now}) as scheduled,
             min(p.next_attempt_at) filter (where p.next_attempt_at <= ${now}) as oldest
        from ${d} p
       where p.status = 'Pending'
         and exists (select 1 from ${e} where ${e.id} = p.endpoint_id and ${e.isActive})`),
  );
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
  return {
    due: Number(row?.due ?? 0),
    scheduled: Number(row?.scheduled ?? 0),
    oldestDueSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
  };
}
