import {
  CreateTemplateRequest,
  CreateTemplateVersionRequest,
  IdParams,
  LicenseTemplateResponse,
  SigningKeyResponse,
  TemplateKeyParams,
  TemplateListQuery,
  TemplateVersionResponse,
  UpdateTemplateRequest,
} from "@licensing/contracts";
import { templates } from "@licensing/core";
import { z } from "zod";
import { authedProcedure, router } from "../trpc.ts";

const UpdateInput = IdParams.extend({ patch: UpdateTemplateRequest });
const CreateVersionInput = IdParams.extend({ version: CreateTemplateVersionRequest });

export const templatesRouter = router({
  list: authedProcedure
    .input(TemplateListQuery.optional())
    .output(z.array(LicenseTemplateResponse))
    .query(({ ctx, input }) => templates.listTemplates(ctx.deps, ctx.actor, input ?? {})),
  get: authedProcedure
    .input(IdParams)
    .output(LicenseTemplateResponse)
    .query(({ ctx, input }) => templates.getTemplate(ctx.deps, ctx.actor, input.id)),
  create: authedProcedure
    .input(CreateTemplateRequest)
    .output(LicenseTemplateResponse)
    .mutation(({ ctx, input }) => templates.createTemplate(ctx.deps, ctx.actor, input)),
  update: authedProcedure
    .input(UpdateInput)
    .output(LicenseTemplateResponse)
    .mutation(({ ctx, input }) => templates.updateTemplate(ctx.deps, ctx.actor, input.id, input.patch)),
  archive: authedProcedure
    .input(IdParams)
    .output(z.void())
    .mutation(({ ctx, input }) => templates.archiveTemplate(ctx.deps, ctx.actor, input.id)),
  versions: router({
    list: authedProcedure
      .input(IdParams)
      .output(z.array(TemplateVersionResponse))
      .query(({ ctx, input }) => templates.listVersions(ctx.deps, ctx.actor, input.id)),
    create: authedProcedure
      .input(CreateVersionInput)
      .output(TemplateVersionResponse)
      .mutation(({ ctx, input }) => templates.createVersion(ctx.deps, ctx.actor, input.id, input.version)),
  }),
  signingKeys: router({
    list: authedProcedure
      .input(IdParams)
      .output(z.array(SigningKeyResponse))
      .query(({ ctx, input }) => templates.listSigningKeys(ctx.deps, ctx.actor, input.id)),
    rotate: authedProcedure
      .input(IdParams)
      .output(SigningKeyResponse)
      .mutation(({ ctx, input }) => templates.rotateSigningKey(ctx.deps, ctx.actor, input.id)),
    retire: authedProcedure
      .input(TemplateKeyParams)
      .output(z.void())
      .mutation(({ ctx, input }) => templates.retireSigningKey(ctx.deps, ctx.actor, input.id, input.keyId)),
  }),
});
