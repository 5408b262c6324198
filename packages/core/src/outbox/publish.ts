import { insertRows, tables, type Executor } from "@licensing/db";
import type { DomainEvent } from "@licensing/contracts";
import type { Clock } from "../clock.ts";

/**
 * Writes events to the outbox; call it inside the transaction of the change they describe, so the event
 * exists exactly when the change does (docs/architecture.md D6). Only the catalogue's events, with their
 * payload schemas (`DomainEvent` in contracts), are accepted.
 */
export async function publishEvents(executor: Executor, clock: Clock, events: DomainEvent[]) {
  if (events.length === 0) return;
  const occurredAt = clock.now();
  await insertRows(
    executor,
    tables.outboxEvents,
    events.map((e) => ({ eventType: e.type, data: e.data, occurredAt })),
  );
}
