import { IdParams, InviteOperatorRequest } from "@licensing/contracts";
import { operators } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const operatorRouter = router({
  users: router({
    list: authedProcedure.query(({ ctx }) => operators.listOperators(ctx.deps, ctx.actor)),
    invite: authedProcedure
      .input(InviteOperatorRequest)
      .mutation(({ ctx, input }) => operators.inviteOperator(ctx.deps, ctx.actor, input)),
    promote: authedProcedure
      .input(IdParams)
      .mutation(({ ctx, input }) => operators.setOperator(ctx.deps, ctx.actor, input.id, true)),
    demote: authedProcedure
      .input(IdParams)
      .mutation(({ ctx, input }) => operators.setOperator(ctx.deps, ctx.actor, input.id, false)),
  }),
});
