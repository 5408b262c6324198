import { CreateApiTokenRequest, IdParams, ListApiTokensQuery } from "@licensing/contracts";
import { apiTokens } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const apiTokensRouter = router({
  list: authedProcedure
    .input(ListApiTokensQuery)
    .query(({ ctx, input }) => apiTokens.listApiTokens(ctx.deps, ctx.actor, input)),
  create: authedProcedure
    .input(CreateApiTokenRequest)
    .mutation(({ ctx, input }) => apiTokens.createApiToken(ctx.deps, ctx.actor, input)),
  revoke: authedProcedure
    .input(IdParams)
    .mutation(({ ctx, input }) => apiTokens.revokeApiToken(ctx.deps, ctx.actor, input.id)),
});
