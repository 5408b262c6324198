import { CreateCompanyRequest, IdParams, ReparentCompanyRequest } from "@licensing/contracts";
import { companies } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const companiesRouter = router({
  list: authedProcedure.query(({ ctx }) => companies.listCompanies(ctx.deps, ctx.actor)),
  get: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => companies.getCompany(ctx.deps, ctx.actor, input.id)),
  children: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => companies.listChildren(ctx.deps, ctx.actor, input.id)),
  subtree: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => companies.listSubtree(ctx.deps, ctx.actor, input.id)),
  create: authedProcedure
    .input(CreateCompanyRequest)
    .mutation(({ ctx, input }) => companies.createCompany(ctx.deps, ctx.actor, input)),
  reparent: authedProcedure
    .input(IdParams.extend(ReparentCompanyRequest.shape))
    .mutation(({ ctx, input }) =>
      companies.reparentCompany(ctx.deps, ctx.actor, input.id, input.newParentId),
    ),
  archive: authedProcedure
    .input(IdParams)
    .mutation(({ ctx, input }) => companies.archiveCompany(ctx.deps, ctx.actor, input.id)),
});
