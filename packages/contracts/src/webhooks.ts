import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";
import { EventType } from "./events.ts";
import { example } from "./examples.ts";

/** The event types an endpoint subscribes to: the catalogue of events.ts. */
export const WebhookEventType = EventType;
export type WebhookEventType = EventType;

export const WebhookDeliveryStatus = z.enum(["Pending", "Succeeded", "Failed"]);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookEndpointResponse = z
  .object({
    id: Uuid,
    url: z.string().meta({ examples: [example.webhookUrl] }),
    description: z.string().meta({ examples: ["CRM sync"] }),
    isActive: z.boolean(),
    events: z.array(WebhookEventType),
    lastDeliveryAt: Timestamp.nullable().meta({ description: "when a delivery was last attempted" }),
    createdAt: Timestamp,
  })
  .meta({ id: "WebhookEndpointResponse", description: "The secret is never returned." });
export type WebhookEndpointResponse = z.infer<typeof WebhookEndpointResponse>;

/** The request body sent to an endpoint (a delivery's `payload` is its exact text). */
export const WebhookEnvelope = z
  .object({ event: WebhookEventType, occurredAt: Timestamp, data: z.record(z.string(), z.unknown()) })
  .meta({ id: "WebhookEnvelope" });
export type WebhookEnvelope = z.infer<typeof WebhookEnvelope>;

export const WebhookDeliveryResponse = z
  .object({
    id: Uuid.meta({ description: "also sent as X-Service-Delivery and webhook-id" }),
    endpointId: Uuid,
    eventType: WebhookEventType,
    payload: z.string().meta({
      contentMediaType: "application/json",
      description:
        "The request body sent, exactly (UTF-8 text, the same bytes on every attempt): the JSON text of `{event, occurredAt, data}`. Both signatures are computed over this text, so a receiver's developer can check one against it.",
      examples: [example.webhookPayload],
    }),
    status: WebhookDeliveryStatus,
    attemptCount: z.int().meta({ examples: [1] }),
    responseStatusCode: z
      .int()
      .nullable()
      .meta({ examples: [200] }),
    responseBody: z.string().nullable().meta({ description: "the first 2000 characters" }),
    lastError: z.string().nullable(),
    nextAttemptAt: Timestamp.nullable(),
    lastAttemptAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "WebhookDeliveryResponse" });
export type WebhookDeliveryResponse = z.infer<typeof WebhookDeliveryResponse>;

// url, secret and events are checked by core, so each failure carries its own code
// (webhook.invalid_url, webhook.secret_too_short, webhook.invalid_events) rather than request.invalid.
export const CreateWebhookRequest = z
  .object({
    url: z
      .string()
      .max(2000)
      .meta({ description: "absolute http(s) URI", examples: [example.webhookUrl] }),
    secret: z
      .string()
      .max(500)
      .meta({ description: "at least 16 characters; never returned", examples: ["whsec-8Kq2Lx7Vn4Rt9Pz3"] }),
    description: z
      .string()
      .max(500)
      .nullish()
      .meta({ examples: ["CRM sync"] }),
    events: z
      .array(z.string())
      .max(50)
      .meta({
        description: "event types from GET /webhooks/event-types",
        examples: [["license.issued", "license.revoked"]],
      }),
  })
  .meta({ id: "CreateWebhookRequest" });
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = z
  .object({
    url: z.string().max(2000).optional(),
    secret: z.string().max(500).optional(),
    description: z.string().max(500).nullish(),
    isActive: z.boolean().optional(),
    events: z.array(z.string()).max(50).optional(),
  })
  .meta({ id: "UpdateWebhookRequest" });
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>;

export const ListWebhookDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: "1..200, default 50" }),
});

export const DeliveryIdParams = z.object({ deliveryId: Uuid });
