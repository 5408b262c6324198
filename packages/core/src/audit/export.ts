import { Readable } from "node:stream";
import { and, asc, lte, sql, type SQL } from "drizzle-orm";
import { tables, type AuditLogRow, type Executor } from "@licensing/db";
import {
  AUDIT_CSV_HEADER,
  auditExportFormats,
  type AuditExportFormat,
  type AuditExportQuery,
} from "@licensing/contracts";
import { stringify } from "csv-stringify/sync";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { assertOperator } from "../policy/index.ts";
import { recordAudit } from "./record.ts";
import { auditConditions, definedFilters, toAuditLogResponse } from "./filters.ts";

const a = tables.auditLog;
const PAGE_SIZE = 1000;

export interface AuditExport {
  fileName: string;
  contentType: string;
  /** Pulled page by page as the client reads, so memory stays flat whatever the row count. */
  body: Readable;
}

/**
 * Streams the audit rows matching the filters, oldest first, as CSV (RFC 4180, CRLF) or a JSON array.
 * Operators only; the export itself is logged as `audit.exported` before the first byte.
 */
export async function exportAudit(deps: Deps, actor: Actor, query: AuditExportQuery): Promise<AuditExport> {
  assertOperator(actor);
  const format = (query.format ?? "csv").toLowerCase() as AuditExportFormat;
  if (!auditExportFormats.includes(format)) {
    fail("audit.invalid_format", `format: one of ${auditExportFormats.join(", ")}`);
  }
  const { format: _format, ...filters } = query;
  const where = auditConditions(filters);
  const startedAt = deps.clock.now();
  await deps.db.transaction((tx) =>
    recordAudit(tx, deps.clock, actor, {
      action: "audit.exported",
      entityType: "audit_log",
      entityId: null,
      meta: { format, filters: definedFilters(filters) },
    }),
  );
  // Rows written after the export started (ours included, at most at the same instant) do not extend it.
  const pages = keysetPages(deps.reads, and(where, lte(a.occurredAt, startedAt)));
  const day = startedAt.toISOString().slice(0, 10).replaceAll("-", "");
  return format === "csv"
    ? {
        fileName: `audit-${day}.csv`,
        contentType: "text/csv; charset=utf-8",
        body: Readable.from(csv(pages)),
      }
    : {
        fileName: `audit-${day}.json`,
        contentType: "application/json; charset=utf-8",
        body: Readable.from(json(pages)),
      };
}

/**
 * Pages in (occurred_at, id) order, each query starting after the last row of the previous page (keyset,
 * served by the audit_log_by_time index): no open transaction or cursor is held while the client reads.
 */
async function* keysetPages(db: Executor, where: SQL | undefined): AsyncGenerator<AuditLogRow[]> {
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await db
      .select({ row: a, at: sql<string>`${a.occurredAt}::text` })
      .from(a)
      .where(
        and(
          where,
          after ? sql`(${a.occurredAt}, ${a.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(asc(a.occurredAt), asc(a.id))
      .limit(PAGE_SIZE);
    if (rows.length === 0) return;
    yield rows.map((r) => r.row);
    if (rows.length < PAGE_SIZE) return;
    // The cursor keeps the database's own text of the timestamp: a JS Date would drop microseconds.
    const last = rows[rows.length - 1]!;
    after = { at: last.at, id: last.row.id };
  }
}

const csvOptions = { record_delimiter: "windows" } as const;

async function* csv(pages: AsyncIterable<AuditLogRow[]>): AsyncGenerator<string> {
  yield stringify([[...AUDIT_CSV_HEADER]], csvOptions);
  for await (const page of pages) {
    yield stringify(
      page.map((r) => [
        r.occurredAt.toISOString(),
        r.actorEmail ?? "",
        r.action,
        r.entityType,
        r.entityId ?? "",
        JSON.stringify(r.meta),
      ]),
      csvOptions,
    );
  }
}

async function* json(pages: AsyncIterable<AuditLogRow[]>): AsyncGenerator<string> {
  let first = true;
  yield "[";
  for await (const page of pages) {
    const chunk = page.map((r) => JSON.stringify(toAuditLogResponse(r))).join(",");
    yield first ? chunk : `,${chunk}`;
    first = false;
  }
  yield "]";
}
