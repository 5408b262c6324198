import { and, desc, inArray, sql, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { tables } from "@licensing/db";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { boundedTotal } from "../paging/bounded-total.ts";
import { afterCursor, decodeCursor, encodeCursor, issuedAtText } from "./cursor.ts";

const l = tables.licenses;
const newestFirst = [desc(l.issuedAt), desc(l.id)];

/** `page` (from the start) or `after` (a cursor), never both (decision 0058). */
export interface LicensePaging {
  page?: number | undefined;
  pageSize: number;
  after?: string | undefined;
}

/** The cursor or the page asked for, and the offset; `license.cursor_with_page` or `license.invalid_cursor`. */
export function readPaging(paging: LicensePaging) {
  if (paging.after !== undefined && paging.page !== undefined)
    fail(
      "license.cursor_with_page",
      "Use page or after, not both: after continues from a cursor, page counts from the start",
    );
  const cursor = paging.after === undefined ? undefined : decodeCursor(paging.after);
  const page = cursor ? null : (paging.page ?? 1);
  return { cursor, page, offset: page === null ? 0 : (page - 1) * paging.pageSize };
}

/**
 * One page of the licenses matching `where`, newest first, read by `rows` (a `$dynamic()` select from
 * licenses, with whatever it joins), and the cursor of the page after it (null on the last page). `total`
 * is exact up to EXACT_TOTAL_LIMIT matches and an estimate past it (decision 0005, `totalIsEstimate`),
 * never below the end of the page served; it counts the whole list, whatever the cursor.
 *
 * The page's ids (one more, to know whether a page follows) come first, from an index-only scan: every
 * licenses_by_*_issued index holds issued_at, id and all filter columns. With `page` the scan skips its
 * offset inside the index; with `after` (decision 0058) it starts at the cursor and skips nothing. Only
 * the page's own rows are then read from the table.
 */
export async function licensePage<Q extends PgSelect>(
  deps: Deps,
  where: SQL | undefined,
  paging: LicensePaging,
  rows: Q,
): Promise<{
  rows: Q["_"]["result"];
  total: number;
  totalIsEstimate: boolean;
  page: number | null;
  nextCursor: string | null;
}> {
  const { cursor, page, offset } = readPaging(paging);
  const [ids, total] = await Promise.all([
    deps.reads
      .select({ id: l.id, issuedAt: issuedAtText })
      .from(l)
      .where(and(where, cursor && afterCursor(cursor)))
      .orderBy(...newestFirst)
      .limit(paging.pageSize + 1)
      .offset(offset),
    boundedTotal(
      deps.db,
      deps.db
        .select({ one: sql`1` })
        .from(l)
        .where(where),
    ),
  ]);
  const served = ids.slice(0, paging.pageSize);
  const last = served.at(-1);
  const read = served.length
    ? await rows
        .where(
          inArray(
            l.id,
            served.map((row) => row.id),
          ),
        )
        .orderBy(...newestFirst)
        .execute()
    : [];
  return {
    rows: read,
    total: Math.max(total.total, read.length ? offset + read.length : 0),
    totalIsEstimate: total.isEstimate,
    page,
    nextCursor: ids.length > paging.pageSize && last ? encodeCursor(last) : null,
  };
}
