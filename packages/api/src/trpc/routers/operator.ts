import {
  IdParams,
  InviteOperatorRequest,
  OperatorLicensePage,
  OperatorLicenseQuery,
  OperatorOverviewResponse,
  OperatorTenantPage,
  OperatorTenantQuery,
  OperatorUserResponse,
} from "@licensing/contracts";
import { operators } from "@licensing/core";
import { z } from "zod";
import { authedProcedure, router } from "../trpc.ts";

export const operatorRouter = router({
  overview: authedProcedure
    .output(OperatorOverviewResponse)
    .query(({ ctx }) => operators.getOverview(ctx.deps, ctx.actor)),
  tenants: authedProcedure
    .input(OperatorTenantQuery)
    .output(OperatorTenantPage)
    .query(({ ctx, input }) => operators.listTenants(ctx.deps, ctx.actor, input)),
  licenses: authedProcedure
    .input(OperatorLicenseQuery)
    .output(OperatorLicensePage)
    .query(({ ctx, input }) => operators.listAllLicenses(ctx.deps, ctx.actor, input)),
  users: router({
    list: authedProcedure
      .output(z.array(OperatorUserResponse))
      .query(({ ctx }) => operators.listOperators(ctx.deps, ctx.actor)),
    invite: authedProcedure
      .input(InviteOperatorRequest)
      .output(OperatorUserResponse)
      .mutation(({ ctx, input }) => operators.inviteOperator(ctx.deps, ctx.actor, input)),
    promote: authedProcedure
      .input(IdParams)
      .output(OperatorUserResponse)
      .mutation(({ ctx, input }) => operators.setOperator(ctx.deps, ctx.actor, input.id, true)),
    demote: authedProcedure
      .input(IdParams)
      .output(OperatorUserResponse)
      .mutation(({ ctx, input }) => operators.setOperator(ctx.deps, ctx.actor, input.id, false)),
  }),
});
