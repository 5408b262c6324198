import {
  ApiTokenResponse,
  CreateApiTokenRequest,
  CreateApiTokenResponse,
  IdParams,
  ListApiTokensQuery,
} from "@licensing/contracts";
import { apiTokens } from "@licensing/core";
import { z } from "zod";
import { authedProcedure, router } from "../trpc.ts";

export const apiTokensRouter = router({
  list: authedProcedure
    .input(ListApiTokensQuery)
    .output(z.array(ApiTokenResponse))
    .query(({ ctx, input }) => apiTokens.listApiTokens(ctx.deps, ctx.actor, input)),
  create: authedProcedure
    .input(CreateApiTokenRequest)
    .output(CreateApiTokenResponse)
    .mutation(({ ctx, input }) => apiTokens.createApiToken(ctx.deps, ctx.actor, input)),
  revoke: authedProcedure
    .input(IdParams)
    .output(z.void())
    .mutation(({ ctx, input }) => apiTokens.revokeApiToken(ctx.deps, ctx.actor, input.id)),
});
