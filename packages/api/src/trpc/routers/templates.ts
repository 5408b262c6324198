import {
  CreateTemplateRequest,
  CreateTemplateVersionRequest,
  IdParams,
  TemplateKeyParams,
  TemplateListQuery,
  UpdateTemplateRequest,
} from "@licensing/contracts";
import { templates } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

const UpdateInput = IdParams.extend({ patch: UpdateTemplateRequest });
const CreateVersionInput = IdParams.extend({ version: CreateTemplateVersionRequest });

export const templatesRouter = router({
  list: authedProcedure
    .input(TemplateListQuery.optional())
    .query(({ ctx, input }) => templates.listTemplates(ctx.deps, ctx.actor, input ?? {})),
  get: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => templates.getTemplate(ctx.deps, ctx.actor, input.id)),
  create: authedProcedure
    .input(CreateTemplateRequest)
    .mutation(({ ctx, input }) => templates.createTemplate(ctx.deps, ctx.actor, input)),
  update: authedProcedure
    .input(UpdateInput)
    .mutation(({ ctx, input }) => templates.updateTemplate(ctx.deps, ctx.actor, input.id, input.patch)),
  archive: authedProcedure
    .input(IdParams)
    .mutation(({ ctx, input }) => templates.archiveTemplate(ctx.deps, ctx.actor, input.id)),
  versions: router({
    list: authedProcedure
      .input(IdParams)
      .query(({ ctx, input }) => templates.listVersions(ctx.deps, ctx.actor, input.id)),
    create: authedProcedure
      .input(CreateVersionInput)
      .mutation(({ ctx, input }) => templates.createVersion(ctx.deps, ctx.actor, input.id, input.version)),
  }),
  signingKeys: router({
    list: authedProcedure
      .input(IdParams)
      .query(({ ctx, input }) => templates.listSigningKeys(ctx.deps, ctx.actor, input.id)),
    rotate: authedProcedure
      .input(IdParams)
      .mutation(({ ctx, input }) => templates.rotateSigningKey(ctx.deps, ctx.actor, input.id)),
    retire: authedProcedure
      .input(TemplateKeyParams)
      .mutation(({ ctx, input }) => templates.retireSigningKey(ctx.deps, ctx.actor, input.id, input.keyId)),
  }),
});
