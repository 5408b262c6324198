import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Executor } from "./database.ts";

/**
 * Runs several independent writes (insert, update or delete builders) as one statement, each in its own
 * data-modifying CTE: one round trip instead of one per write. They see the same snapshot, so none may
 * depend on another's effect, and no two may change the same row.
 */
export async function writeInOneRoundTrip(executor: Executor, writes: SQLWrapper[]): Promise<void> {
  if (writes.length === 0) return;
  if (writes.length === 1) {
    await executor.execute(writes[0]!.getSQL());
    return;
  }
  const ctes: SQL[] = writes.map((write, i) => sql`${sql.raw(`w${i}`)} as (${write.getSQL()})`);
  await executor.execute(sql`with ${sql.join(ctes, sql`, `)} select 1`);
}
