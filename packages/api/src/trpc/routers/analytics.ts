import { DistributionQuery, DistributionResponse, UsageQuery, UsageResponse } from "@licensing/contracts";
import { analytics } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const analyticsRouter = router({
  usage: authedProcedure
    .input(UsageQuery)
    .output(UsageResponse)
    .query(({ ctx, input }) => analytics.getUsage(ctx.deps, ctx.actor, input)),
  distribution: authedProcedure
    .input(DistributionQuery)
    .output(DistributionResponse)
    .query(({ ctx, input }) => analytics.getDistribution(ctx.deps, ctx.actor, input)),
});
