import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";

/** Append-only for the application: no code path updates or deletes rows. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    action: text("action").notNull(),
    actorEmail: text("actor_email"),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull().default({}),
    ipAddress: text("ip_address"),
    occurredAt: timestamptz("occurred_at").notNull(),
  },
  (t) => [
    // Both end in (occurred_at, id), the keyset of the export and the order of GET /audit, so a filtered
    // page is a range scan and never a sort of every remaining match.
    index("audit_log_by_time").on(t.occurredAt, t.id),
    index("audit_log_by_action_time").on(t.action, t.occurredAt, t.id),
    index("audit_log_by_entity").on(t.entityType, t.entityId),
  ],
);
export type AuditLogRow = typeof auditLog.$inferSelect;
