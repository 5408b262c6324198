import { desc, inArray, sql, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { tables } from "@licensing/db";
import type { Deps } from "../deps.ts";
import { boundedTotal } from "../paging/bounded-total.ts";

const l = tables.licenses;
const newestFirst = [desc(l.issuedAt), desc(l.id)];

/**
 * One page of the licenses matching `where`, newest first, read by `rows` (a `$dynamic()` select from
 * licenses, with whatever it joins). `total` is exact up to EXACT_TOTAL_LIMIT matches and an estimate past
 * it (decision 0005, `totalIsEstimate`), never below the end of the page served.
 *
 * Deferred join: the page's ids come from an index-only scan (every licenses_by_*_issued index holds
 * issued_at, id and all filter columns), so a deep page skips its offset inside the index instead of
 * reading each skipped row from the table; only the page's own rows are read.
 */
export async function licensePage<Q extends PgSelect>(
  deps: Deps,
  where: SQL | undefined,
  page: { page: number; pageSize: number },
  rows: Q,
): Promise<{ rows: Q["_"]["result"]; total: number; totalIsEstimate: boolean }> {
  const offset = (page.page - 1) * page.pageSize;
  const pageIds = deps.db
    .select({ id: l.id })
    .from(l)
    .where(where)
    .orderBy(...newestFirst)
    .limit(page.pageSize)
    .offset(offset);
  const [read, total] = await Promise.all([
    rows
      .where(inArray(l.id, pageIds))
      .orderBy(...newestFirst)
      .execute(),
    boundedTotal(
      deps.db,
      deps.db
        .select({ one: sql`1` })
        .from(l)
        .where(where),
    ),
  ]);
  return {
    rows: read,
    total: Math.max(total.total, read.length ? offset + read.length : 0),
    totalIsEstimate: total.isEstimate,
  };
}
