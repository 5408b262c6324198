import type {
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookEventType,
} from "@licensing/contracts";
import type { tables } from "@licensing/db";

type EndpointRow = typeof tables.webhookEndpoints.$inferSelect;
type DeliveryRow = typeof tables.webhookDeliveries.$inferSelect;

/** The endpoint as the API shows it: never its secret. */
export const toEndpointResponse = (row: EndpointRow): WebhookEndpointResponse => ({
  id: row.id,
  url: row.url,
  description: row.description,
  isActive: row.isActive,
  events: row.events as WebhookEventType[],
  lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

export const toDeliveryResponse = (row: DeliveryRow): WebhookDeliveryResponse => ({
  id: row.id,
  endpointId: row.endpointId,
  eventType: row.eventType as WebhookEventType,
  payload: row.payload as WebhookDeliveryResponse["payload"],
  status: row.status,
  attemptCount: row.attemptCount,
  responseStatusCode: row.responseStatusCode,
  responseBody: row.responseBody,
  lastError: row.lastError,
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});
