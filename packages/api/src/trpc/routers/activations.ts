import {
  ActivationParams,
  ActivationResponse,
  HeartbeatRecordResponse,
  HeartbeatsQuery,
  IdParams,
} from "@licensing/contracts";
import { activations } from "@licensing/core";
import { z } from "zod";
import { authedProcedure, router } from "../trpc.ts";

/** The panel side of activations; the client API itself is REST only (the SDK speaks HTTP). */
export const activationsRouter = router({
  list: authedProcedure
    .input(IdParams)
    .output(z.array(ActivationResponse))
    .query(({ ctx, input }) => activations.listActivations(ctx.deps, ctx.actor, input.id)),
  heartbeats: authedProcedure
    .input(IdParams.extend(HeartbeatsQuery.shape))
    .output(z.array(HeartbeatRecordResponse))
    .query(({ ctx, input }) => activations.listHeartbeats(ctx.deps, ctx.actor, input.id, input.limit)),
  reset: authedProcedure
    .input(ActivationParams)
    .output(z.void())
    .mutation(({ ctx, input }) =>
      activations.resetActivation(ctx.deps, ctx.actor, input.id, input.activationId),
    ),
});
