import { sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { OperatorWebhookOverview } from "@licensing/contracts";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../sql-rows.ts";

/**
 * The webhook part of the operator overview: active endpoints, and the deliveries created since `since`
 * by their status now (Pending, Failed, Succeeded), in one statement.
 */
export async function webhookOverview(deps: Deps, since: Date): Promise<OperatorWebhookOverview> {
  const e = tables.webhookEndpoints;
  const d = tables.webhookDeliveries;
  const [row] = rowsOf<{ endpoints: number; pending: number; failed: number; success: number }>(
    await deps.reads.execute(sql`
      select (select count(*)::int from ${e} where ${e.isActive}) as endpoints,
             count(*) filter (where ${d.status} = 'Pending')::int as pending,
             count(*) filter (where ${d.status} = 'Failed')::int as failed,
             count(*) filter (where ${d.status} = 'Succeeded')::int as success
        from ${d}
       where ${d.createdAt} >= ${since.toISOString()}::timestamptz`),
  );
  return {
    webhookEndpoints: row!.endpoints,
    deliveryHealthLast24h: { pending: row!.pending, failed: row!.failed, success: row!.success },
  };
}
