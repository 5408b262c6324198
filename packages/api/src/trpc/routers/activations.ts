import { ActivationParams, HeartbeatsQuery, IdParams } from "@licensing/contracts";
import { activations } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

/** The panel side of activations; the client API itself is REST only (the SDK speaks HTTP). */
export const activationsRouter = router({
  list: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => activations.listActivations(ctx.deps, ctx.actor, input.id)),
  heartbeats: authedProcedure
    .input(IdParams.extend(HeartbeatsQuery.shape))
    .query(({ ctx, input }) => activations.listHeartbeats(ctx.deps, ctx.actor, input.id, input.limit)),
  reset: authedProcedure
    .input(ActivationParams)
    .mutation(({ ctx, input }) =>
      activations.resetActivation(ctx.deps, ctx.actor, input.id, input.activationId),
    ),
});
