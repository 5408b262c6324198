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
import { authedProcedure, router } from "../trpc.ts";

export const webhooksRouter = router({
  eventTypes: authedProcedure.output(z.array(WebhookEventType)).query(() => webhooks.listEventTypes()),
  list: authedProcedure
    .output(z.array(WebhookEndpointResponse))
    .query(({ ctx }) => webhooks.listEndpoints(ctx.deps, ctx.actor)),
  get: authedProcedure
    .input(IdParams)
    .output(WebhookEndpointResponse)
    .query(({ ctx, input }) => webhooks.getEndpoint(ctx.deps, ctx.actor, input.id)),
  create: authedProcedure
    .input(CreateWebhookRequest)
    .output(WebhookEndpointResponse)
    .mutation(({ ctx, input }) => webhooks.createEndpoint(ctx.deps, ctx.actor, input)),
  update: authedProcedure
    .input(IdParams.extend(UpdateWebhookRequest.shape))
    .output(WebhookEndpointResponse)
    .mutation(({ ctx, input: { id, ...changes } }) =>
      webhooks.updateEndpoint(ctx.deps, ctx.actor, id, changes),
    ),
  delete: authedProcedure
    .input(IdParams)
    .output(z.void())
    .mutation(({ ctx, input }) => webhooks.deleteEndpoint(ctx.deps, ctx.actor, input.id)),
  deliveries: authedProcedure
    .input(IdParams.extend(ListWebhookDeliveriesQuery.shape))
    .output(z.array(WebhookDeliveryResponse))
    .query(({ ctx, input: { id, ...query } }) => webhooks.listDeliveries(ctx.deps, ctx.actor, id, query)),
  replay: authedProcedure
    .input(DeliveryIdParams)
    .output(z.void())
    .mutation(({ ctx, input }) => webhooks.replayDelivery(ctx.deps, ctx.actor, input.deliveryId)),
});
