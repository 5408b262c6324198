import {
  IdParams,
  InviteOperatorRequest,
  OperatorLicenseQuery,
  OperatorTenantQuery,
} from "@licensing/contracts";
import { operators } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const operatorRouter = router({
  overview: authedProcedure.query(({ ctx }) => operators.getOverview(ctx.deps, ctx.actor)),
  tenants: authedProcedure
    .input(OperatorTenantQuery)
    .query(({ ctx, input }) => operators.listTenants(ctx.deps, ctx.actor, input)),
  licenses: authedProcedure
    .input(OperatorLicenseQuery)
    .query(({ ctx, input }) => operators.listAllLicenses(ctx.deps, ctx.actor, input)),
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
