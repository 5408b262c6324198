import type {
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookEventType,
} from "@licensing/contracts";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "@licensing/db";
import { envelopeText } from "./envelope.ts";

/** The endpoint as the API shows it: never its secret. */
export const toEndpointResponse = (row: WebhookEndpointRow): WebhookEndpointResponse => ({
  id: row.id,
  url: row.url,
  description: row.description,
  isActive: row.isActive,
  events: row.events as WebhookEventType[],
  lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

export const toDeliveryResponse = (row: WebhookDeliveryRow): WebhookDeliveryResponse => ({
  id: row.id,
  endpointId: row.endpointId,
  eventType: row.eventType as WebhookEventType,
  payload: envelopeText(row.payload),
  status: row.status,
  attemptCount: row.attemptCount,
  responseStatusCode: row.responseStatusCode,
  responseBody: row.responseBody,
  lastError: row.lastError,
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});
