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
    index("audit_log_by_time").on(t.occurredAt, t.id),
    index("audit_log_by_action_time").on(t.action, t.occurredAt),
    index("audit_log_by_entity").on(t.entityType, t.entityId),
  ],
);
