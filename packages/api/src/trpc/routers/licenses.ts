import {
  BulkIssueRequest,
  IdParams,
  IssueLicenseRequest,
  LicenseSearchQuery,
  RebindLicenseRequest,
  RevokeLicenseRequest,
  TransferLicenseRequest,
} from "@licensing/contracts";
import { licenses } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const licensesRouter = router({
  search: authedProcedure
    .input(LicenseSearchQuery)
    .query(({ ctx, input }) => licenses.searchLicenses(ctx.deps, ctx.actor, input)),
  get: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => licenses.getLicense(ctx.deps, ctx.actor, input.id)),
  issue: authedProcedure
    .input(IssueLicenseRequest)
    .mutation(({ ctx, input }) => licenses.issueLicense(ctx.deps, ctx.actor, input)),
  bulkIssue: authedProcedure
    .input(BulkIssueRequest)
    .mutation(({ ctx, input }) => licenses.bulkIssueLicenses(ctx.deps, ctx.actor, input)),
  revoke: authedProcedure
    .input(IdParams.extend(RevokeLicenseRequest.shape))
    .mutation(({ ctx, input }) => licenses.revokeLicense(ctx.deps, ctx.actor, input.id, input)),
  suspend: authedProcedure
    .input(IdParams)
    .mutation(({ ctx, input }) => licenses.setLicenseSuspended(ctx.deps, ctx.actor, input.id, true)),
  resume: authedProcedure
    .input(IdParams)
    .mutation(({ ctx, input }) => licenses.setLicenseSuspended(ctx.deps, ctx.actor, input.id, false)),
  transfer: authedProcedure
    .input(IdParams.extend(TransferLicenseRequest.shape))
    .mutation(({ ctx, input }) => licenses.transferLicense(ctx.deps, ctx.actor, input.id, input)),
  rebind: authedProcedure
    .input(IdParams.extend(RebindLicenseRequest.shape))
    .mutation(({ ctx, input }) => licenses.rebindLicense(ctx.deps, ctx.actor, input.id, input)),
  file: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => licenses.licenseFile(ctx.deps, ctx.actor, input.id)),
  publicKey: authedProcedure
    .input(IdParams)
    .query(({ ctx, input }) => licenses.licensePublicKey(ctx.deps, ctx.actor, input.id)),
});
