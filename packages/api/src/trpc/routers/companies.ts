import {
  CompanyResponse,
  CreateCompanyRequest,
  IdParams,
  ReparentCompanyRequest,
} from "@licensing/contracts";
import { companies } from "@licensing/core";
import { z } from "zod";
import { authedProcedure, router } from "../trpc.ts";

export const companiesRouter = router({
  list: authedProcedure
    .output(z.array(CompanyResponse))
    .query(({ ctx }) => companies.listCompanies(ctx.deps, ctx.actor)),
  get: authedProcedure
    .input(IdParams)
    .output(CompanyResponse)
    .query(({ ctx, input }) => companies.getCompany(ctx.deps, ctx.actor, input.id)),
  children: authedProcedure
    .input(IdParams)
    .output(z.array(CompanyResponse))
    .query(({ ctx, input }) => companies.listChildren(ctx.deps, ctx.actor, input.id)),
  subtree: authedProcedure
    .input(IdParams)
    .output(z.array(CompanyResponse))
    .query(({ ctx, input }) => companies.listSubtree(ctx.deps, ctx.actor, input.id)),
  create: authedProcedure
    .input(CreateCompanyRequest)
    .output(CompanyResponse)
    .mutation(({ ctx, input }) => companies.createCompany(ctx.deps, ctx.actor, input)),
  reparent: authedProcedure
    .input(IdParams.extend(ReparentCompanyRequest.shape))
    .output(CompanyResponse)
    .mutation(({ ctx, input }) =>
      companies.reparentCompany(ctx.deps, ctx.actor, input.id, input.newParentId),
    ),
  archive: authedProcedure
    .input(IdParams)
    .output(z.void())
    .mutation(({ ctx, input }) => companies.archiveCompany(ctx.deps, ctx.actor, input.id)),
});
