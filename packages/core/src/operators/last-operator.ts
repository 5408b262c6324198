import { and, count, eq, ne, sql } from "drizzle-orm";
import { tables, type Tx } from "@licensing/db";
import { fail } from "../errors.ts";

// A constant of this service for the advisory lock below (the migrations hold another).
const OPERATORS_LOCK_KEY = 4_210_771_002;

/**
 * Fails with operator.last_operator when `userId` is the only active operator. Every change that can take
 * an operator away (demotion, deactivation) calls it in its transaction, and it first takes one
 * transaction-wide lock, so these changes run one after the other: of two operators removing each other
 * at once, the second counts after the first has committed. (Locking the operator rows instead can
 * deadlock with the target row a deactivation has already locked.)
 */
export async function assertNotLastOperator(tx: Tx, userId: string, change: "deactivated" | "demoted") {
  await tx.execute(sql`select pg_advisory_xact_lock(${OPERATORS_LOCK_KEY})`);
  const u = tables.users;
  const [others] = await tx
    .select({ n: count() })
    .from(u)
    .where(and(eq(u.isOperator, true), eq(u.status, "active"), ne(u.id, userId)));
  if ((others?.n ?? 0) === 0) fail("operator.last_operator", `The last active operator cannot be ${change}`);
}
