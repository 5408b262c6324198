import { tables, type Executor } from "@licensing/db";
import type { Clock } from "../clock.ts";
import type { RequestInfo } from "../deps.ts";

export interface AuditEntry {
  action: string;
  actorEmail: string | null;
  entityType: string;
  entityId: string | null;
  meta?: Record<string, unknown>;
  request: RequestInfo;
}

/** Writes one audit row; call it inside the transaction of the change it records. */
export async function recordAudit(executor: Executor, clock: Clock, entry: AuditEntry) {
  await auditInsert(executor, clock, entry);
}

/** The insert of one audit row, not yet run: for `writeInOneRoundTrip` with the change it records. */
export function auditInsert(executor: Executor, clock: Clock, entry: AuditEntry) {
  return executor.insert(tables.auditLog).values({
    action: entry.action,
    actorEmail: entry.actorEmail,
    entityType: entry.entityType,
    entityId: entry.entityId,
    meta: entry.meta ?? {},
    ipAddress: entry.request.ip,
    occurredAt: clock.now(),
  });
}
