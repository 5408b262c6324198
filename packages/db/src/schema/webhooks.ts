import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";

/** Receivers of outgoing webhooks (spec §6); operators manage them. */
export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: id(),
  url: text("url").notNull(),
  description: text("description").notNull().default(""),
  /** The signing secret, sealed under the master key (never returned, never logged). */
  secretSealed: text("secret_sealed").notNull(),
  isActive: boolean("is_active").notNull().default(true),
  events: text("events").array().notNull(),
  lastDeliveryAt: timestamptz("last_delivery_at"),
  createdAt: timestamptz("created_at").notNull(),
  updatedAt: timestamptz("updated_at").notNull(),
});
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * One event to send to one endpoint. Rows are created by the `outbox_events` trigger of migration 0012,
 * in the transaction of the event (docs/decisions/0024). A worker owns a row while `lease_until` lies
 * ahead and saves its result only while `lease_token` is still its own.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The envelope `{event, occurredAt, data}` sent as the request body. */
    payload: jsonb("payload")
      .$type<{ event: string; occurredAt: string; data: Record<string, unknown> }>()
      .notNull(),
    status: text("status").$type<"Pending" | "Succeeded" | "Failed">().notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    responseStatusCode: integer("response_status_code"),
    responseBody: text("response_body"),
    lastError: text("last_error"),
    nextAttemptAt: timestamptz("next_attempt_at"),
    lastAttemptAt: timestamptz("last_attempt_at"),
    createdAt: timestamptz("created_at").notNull(),
    leaseToken: uuid("lease_token"),
    leaseUntil: timestamptz("lease_until"),
  },
  (t) => [
    index("webhook_deliveries_due")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'Pending'`),
    index("webhook_deliveries_by_endpoint").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
    index("webhook_deliveries_health").on(t.createdAt, t.status),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
