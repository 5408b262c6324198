import { sql, type SQLWrapper } from "drizzle-orm";
import { EXACT_TOTAL_LIMIT } from "@licensing/contracts";
import type { Executor } from "@licensing/db";
import { rowsOf } from "../sql-rows.ts";

export { EXACT_TOTAL_LIMIT };

/** A paged list's `total`, and whether it is the planner's estimate rather than a count (decision 0005). */
export interface BoundedTotal {
  total: number;
  isEstimate: boolean;
}

/**
 * The number of rows of `matching` (a `SELECT 1 FROM … WHERE …` without ORDER BY or LIMIT), exact up to
 * EXACT_TOTAL_LIMIT. Counting stops after the limit + 1 rows, so a broad filter over millions of rows costs
 * no more than a narrow one. Past the limit the answer is the planner's row estimate, never below the
 * limit + 1, and says so (`isEstimate`). Callers also keep it at least the end of the page they served.
 */
export async function boundedTotal(db: Executor, matching: SQLWrapper): Promise<BoundedTotal> {
  const [counted] = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(*)::int AS n FROM (${matching} LIMIT ${EXACT_TOTAL_LIMIT + 1}) AS bounded`,
    ),
  );
  const exact = counted?.n ?? 0;
  if (exact <= EXACT_TOTAL_LIMIT) return { total: exact, isEstimate: false };
  const [plan] = rowsOf<{ "QUERY PLAN": unknown }>(await db.execute(sql`EXPLAIN (FORMAT JSON) ${matching}`));
  const estimate = planRows(plan?.["QUERY PLAN"]);
  return { total: Math.max(estimate, exact), isEstimate: true };
}

/** The top node's row estimate of an EXPLAIN (FORMAT JSON) answer (a JSON string or already parsed). */
function planRows(plan: unknown): number {
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{
    Plan?: { "Plan Rows"?: number };
  }>;
  return Math.round(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0);
}
