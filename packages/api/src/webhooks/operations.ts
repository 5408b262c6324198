import {
  CreateWebhookRequest,
  DeliveryIdParams,
  IdParams,
  ListWebhookDeliveriesQuery,
  UpdateWebhookRequest,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookEventType,
} from "@licensing/contracts";
import { webhooks } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Webhooks"];
const base = "/panel/webhooks";

export const webhookOperations = {
  eventTypes: operation({
    method: "get",
    path: `${base}/event-types`,
    summary: "The catalogue of event types",
    description:
      "The event types a webhook endpoint may subscribe to. Any authenticated caller; it changes nothing.",
    tags,
    auth: "authenticated",
    response: z.array(WebhookEventType),
    handler: async () => webhooks.listEventTypes(),
  }),
  list: operation({
    method: "get",
    path: base,
    summary: "Every webhook endpoint",
    description: "Every webhook endpoint, never with its secret. Operators only; it changes nothing.",
    tags,
    auth: "authenticated",
    response: z.array(WebhookEndpointResponse),
    errors: ["auth.operator_required"],
    handler: ({ deps, actor }) => webhooks.listEndpoints(deps, actor),
  }),
  create: operation({
    method: "post",
    path: base,
    summary: "Create a webhook endpoint",
    description:
      "Registers an endpoint: an http(s) URL (refused when it resolves to a private address, unless the server allows them), a secret of at least 16 characters (stored encrypted, never returned) and the event types it receives. Each delivery is signed with the secret (`X-Service-Signature: sha256=…` and Standard Webhooks `webhook-signature`) and retried with backoff until it succeeds. Operators only; recorded in the audit log.",
    tags,
    auth: "authenticated",
    body: CreateWebhookRequest,
    response: WebhookEndpointResponse,
    status: 201,
    errors: [
      "auth.operator_required",
      "webhook.invalid_url",
      "webhook.url_not_allowed",
      "webhook.secret_too_short",
      "webhook.invalid_events",
    ],
    handler: ({ deps, actor, input }) => webhooks.createEndpoint(deps, actor, input),
  }),
  get: operation({
    method: "get",
    path: `${base}/{id}`,
    summary: "One webhook endpoint",
    description: "One webhook endpoint, without its secret. Operators only; it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: WebhookEndpointResponse,
    errors: ["auth.operator_required", "webhook.not_found"],
    handler: ({ deps, actor, input }) => webhooks.getEndpoint(deps, actor, input.id),
  }),
  update: operation({
    method: "patch",
    path: `${base}/{id}`,
    summary: "Change a webhook endpoint",
    description:
      "Changes an endpoint's URL, secret, description, event types or `isActive` (an inactive endpoint receives nothing). Fields left out stay as they are. Operators only; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    body: UpdateWebhookRequest,
    response: WebhookEndpointResponse,
    errors: [
      "auth.operator_required",
      "webhook.not_found",
      "webhook.invalid_url",
      "webhook.url_not_allowed",
      "webhook.secret_too_short",
      "webhook.invalid_events",
    ],
    handler: ({ deps, actor, input: { id, ...changes } }) =>
      webhooks.updateEndpoint(deps, actor, id, changes),
  }),
  delete: operation({
    method: "delete",
    path: `${base}/{id}`,
    summary: "Delete a webhook endpoint",
    description:
      "Deletes an endpoint and all its deliveries; a delivery being sent at that moment is not recorded. Operators only; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["auth.operator_required", "webhook.not_found"],
    handler: ({ deps, actor, input }) => webhooks.deleteEndpoint(deps, actor, input.id),
  }),
  deliveries: operation({
    method: "get",
    path: `${base}/{id}/deliveries`,
    summary: "Latest deliveries of an endpoint",
    description:
      "An endpoint's latest deliveries, newest first (`limit` 1 to 200, default 50), with the body sent, the status, the attempts and the last answer. Operators only; it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    query: ListWebhookDeliveriesQuery,
    response: z.array(WebhookDeliveryResponse),
    errors: ["auth.operator_required", "webhook.not_found"],
    handler: ({ deps, actor, input: { id, ...query } }) => webhooks.listDeliveries(deps, actor, id, query),
  }),
  replay: operation({
    method: "post",
    path: `${base}/deliveries/{deliveryId}/replay`,
    summary: "Send a webhook delivery again",
    description:
      "Sends a delivery again: back to Pending with its attempts counted from 1, due now, whatever its state. Operators only; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: DeliveryIdParams,
    errors: ["auth.operator_required", "webhook_delivery.not_found"],
    handler: ({ deps, actor, input }) => webhooks.replayDelivery(deps, actor, input.deliveryId),
  }),
};
