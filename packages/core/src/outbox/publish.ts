import { tables, type Executor } from "@licensing/db";
import type { Clock } from "../clock.ts";

/** Event types of the webhook catalogue (spec §6). */
export type EventType =
  | "license.issued"
  | "license.revoked"
  | "license.expired"
  | "license.activated"
  | "license.deactivated"
  | "license.heartbeat_missed"
  | "license.transferred"
  | "license.rebound";

export interface OutboxEvent {
  type: EventType;
  data: Record<string, unknown>;
}

/**
 * Writes events to the outbox; call it inside the transaction of the change they describe, so the event
 * exists exactly when the change does (ARCHITECTURE.md D6).
 */
export async function publishEvents(executor: Executor, clock: Clock, events: OutboxEvent[]) {
  if (events.length === 0) return;
  await eventsInsert(executor, clock, events);
}

/** The insert of one or more events (never none), not yet run: for `writeInOneRoundTrip` with their change. */
export function eventsInsert(executor: Executor, clock: Clock, events: OutboxEvent[]) {
  const occurredAt = clock.now();
  return executor
    .insert(tables.outboxEvents)
    .values(events.map((e) => ({ eventType: e.type, data: e.data, occurredAt })));
}
