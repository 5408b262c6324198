import { and, eq, gte, lte, type SQL } from "drizzle-orm";
import { tables, type AuditLogRow } from "@licensing/db";
import type { AuditFilters, AuditLogResponse } from "@licensing/contracts";
import { fail } from "../errors.ts";

const a = tables.auditLog;

/** The WHERE condition of the spec's audit filters (exact matches; from and until inclusive). */
export function auditConditions(filters: AuditFilters): SQL | undefined {
  const from = filters.from ? new Date(filters.from) : undefined;
  const until = filters.until ? new Date(filters.until) : undefined;
  if (from && until && from > until) fail("audit.invalid_range", "from: must not be later than until");
  return and(
    filters.action ? eq(a.action, filters.action) : undefined,
    filters.actorEmail ? eq(a.actorEmail, filters.actorEmail) : undefined,
    filters.entityType ? eq(a.entityType, filters.entityType) : undefined,
    filters.entityId ? eq(a.entityId, filters.entityId) : undefined,
    from ? gte(a.occurredAt, from) : undefined,
    until ? lte(a.occurredAt, until) : undefined,
  );
}

export const toAuditLogResponse = (row: AuditLogRow): AuditLogResponse => ({
  id: row.id,
  action: row.action,
  actorEmail: row.actorEmail,
  entityType: row.entityType,
  entityId: row.entityId,
  meta: JSON.stringify(row.meta),
  ipAddress: row.ipAddress,
  occurredAt: row.occurredAt.toISOString(),
});

/** The filters that were set, for the meta of `audit.exported`. */
export const definedFilters = (filters: AuditFilters) =>
  Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
