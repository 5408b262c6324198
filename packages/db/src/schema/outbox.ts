import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";

/**
 * Events written in the transaction of the change they describe (docs/architecture.md D6); the webhook
 * dispatcher turns unprocessed rows into deliveries.
 */
export const outboxEvents = pgTable(
  "outbox_events",
  {
    id: id(),
    eventType: text("event_type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamptz("occurred_at").notNull(),
    processedAt: timestamptz("processed_at"),
  },
  (t) => [
    index("outbox_events_unprocessed")
      .on(t.occurredAt, t.id)
      .where(sql`${t.processedAt} is null`),
  ],
);
