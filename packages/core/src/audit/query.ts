import { desc } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { AuditLogResponse, AuditQuery } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { assertOperator } from "../policy/index.ts";
import { auditConditions, toAuditLogResponse } from "./filters.ts";

const a = tables.auditLog;

/** Audit rows matching the filters, newest first (operators only). */
export async function listAudit(deps: Deps, actor: Actor, query: AuditQuery): Promise<AuditLogResponse[]> {
  assertOperator(actor);
  const rows = await deps.db
    .select()
    .from(a)
    .where(auditConditions(query))
    .orderBy(desc(a.occurredAt), desc(a.id))
    .limit(query.limit)
    .offset(query.offset);
  return rows.map(toAuditLogResponse);
}
