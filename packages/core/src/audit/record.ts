import { insertRows, tables, type Executor } from "@licensing/db";
import type { Clock } from "../clock.ts";
import type { RequestInfo } from "../deps.ts";

/** Who an audit row names: a panel actor, a person acting on their own account, or nobody (system). */
export interface AuditActor {
  email: string | null;
  request: RequestInfo;
}

/** The sweepers and the client API act for nobody. */
export const SYSTEM_ACTOR: AuditActor = { email: null, request: { ip: null, userAgent: null } };

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId: string | null;
  meta?: Record<string, unknown>;
}

/**
 * Writes audit rows by one actor, in one statement; call it inside the transaction of the change they
 * record.
 */
export async function recordAudit(
  executor: Executor,
  clock: Clock,
  actor: AuditActor,
  ...entries: AuditEntry[]
) {
  if (entries.length === 0) return;
  const occurredAt = clock.now();
  await insertRows(
    executor,
    tables.auditLog,
    entries.map((entry) => ({
      action: entry.action,
      actorEmail: actor.email,
      entityType: entry.entityType,
      entityId: entry.entityId,
      meta: entry.meta ?? {},
      ipAddress: actor.request.ip,
      occurredAt,
    })),
  );
}
