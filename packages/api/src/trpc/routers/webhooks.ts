import {
  CreateWebhookRequest,
  DeliveryIdParams,
  IdParams,
  ListWebhookDeliveriesQuery,
  UpdateWebhookRequest,
} from "@licensing/contracts";
import { webhooks } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const webhooksRouter = router({
  eventTypes: authedProcedure.query(() => webhooks.listEventTypes()),
  list: authedProcedure.query(({ ctx }) => webhooks.listEndpoints(ctx.deps, ctx.actor)),
  get: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => webhooks.getEndpoint(ctx.deps, ctx.actor, input.id)),
  create: authedProcedure
    .input(CreateWebhookRequest)
    .mutation(({ ctx, input }) => webhooks.createEndpoint(ctx.deps, ctx.actor, input)),
  update: authedProcedure
    .input(IdParams.extend(UpdateWebhookRequest.shape))
    .mutation(({ ctx, input: { id, ...changes } }) =>
      webhooks.updateEndpoint(ctx.deps, ctx.actor, id, changes),
    ),
  delete: authedProcedure
    .input(IdParams)
    .mutation(({ ctx, input }) => webhooks.deleteEndpoint(ctx.deps, ctx.actor, input.id)),
  deliveries: authedProcedure
    .input(IdParams.extend(ListWebhookDeliveriesQuery.shape))
    .query(({ ctx, input: { id, ...query } }) => webhooks.listDeliveries(ctx.deps, ctx.actor, id, query)),
  replay: authedProcedure
    .input(DeliveryIdParams)
    .mutation(({ ctx, input }) => webhooks.replayDelivery(ctx.deps, ctx.actor, input.deliveryId)),
});
