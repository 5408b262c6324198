import { DistributionQuery, UsageQuery } from "@licensing/contracts";
import { analytics } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const analyticsRouter = router({
  usage: authedProcedure
    .input(UsageQuery)
    .query(({ ctx, input }) => analytics.getUsage(ctx.deps, ctx.actor, input)),
  distribution: authedProcedure
    .input(DistributionQuery)
    .query(({ ctx, input }) => analytics.getDistribution(ctx.deps, ctx.actor, input)),
});
