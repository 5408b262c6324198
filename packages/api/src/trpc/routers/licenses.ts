import {
  BulkIssueRequest,
  BulkIssueResponse,
  IdParams,
  IssueLicenseRequest,
  LicenseFile,
  LicenseIssueResponse,
  LicensePage,
  LicensePublicKeyResponse,
  LicenseResponse,
  LicenseSearchQuery,
  LicenseTransferResponse,
  RebindLicenseRequest,
  RevokeLicenseRequest,
  TransferLicenseRequest,
} from "@licensing/contracts";
import { licenses } from "@licensing/core";
import { z } from "zod";
import { authedProcedure, router } from "../trpc.ts";

export const licensesRouter = router({
  search: authedProcedure
    .input(LicenseSearchQuery)
    .output(LicensePage)
    .query(({ ctx, input }) => licenses.searchLicenses(ctx.deps, ctx.actor, input)),
  get: authedProcedure
    .input(IdParams)
    .output(LicenseResponse)
    .query(({ ctx, input }) => licenses.getLicense(ctx.deps, ctx.actor, input.id)),
  issue: authedProcedure
    .input(IssueLicenseRequest)
    .output(LicenseIssueResponse)
    .mutation(({ ctx, input }) => licenses.issueLicense(ctx.deps, ctx.actor, input)),
  bulkIssue: authedProcedure
    .input(BulkIssueRequest)
    .output(BulkIssueResponse)
    .mutation(({ ctx, input }) => licenses.bulkIssueLicenses(ctx.deps, ctx.actor, input)),
  revoke: authedProcedure
    .input(IdParams.extend(RevokeLicenseRequest.shape))
    .output(z.void())
    .mutation(({ ctx, input }) => licenses.revokeLicense(ctx.deps, ctx.actor, input.id, input)),
  suspend: authedProcedure
    .input(IdParams)
    .output(LicenseResponse)
    .mutation(({ ctx, input }) => licenses.setLicenseSuspended(ctx.deps, ctx.actor, input.id, true)),
  resume: authedProcedure
    .input(IdParams)
    .output(LicenseResponse)
    .mutation(({ ctx, input }) => licenses.setLicenseSuspended(ctx.deps, ctx.actor, input.id, false)),
  transfer: authedProcedure
    .input(IdParams.extend(TransferLicenseRequest.shape))
    .output(LicenseTransferResponse)
    .mutation(({ ctx, input }) => licenses.transferLicense(ctx.deps, ctx.actor, input.id, input)),
  rebind: authedProcedure
    .input(IdParams.extend(RebindLicenseRequest.shape))
    .output(LicenseResponse)
    .mutation(({ ctx, input }) => licenses.rebindLicense(ctx.deps, ctx.actor, input.id, input)),
  file: authedProcedure
    .input(IdParams)
    .output(LicenseFile)
    .query(({ ctx, input }) => licenses.licenseFile(ctx.deps, ctx.actor, input.id)),
  publicKey: authedProcedure
    .input(IdParams)
    .output(LicensePublicKeyResponse)
    .query(({ ctx, input }) => licenses.licensePublicKey(ctx.deps, ctx.actor, input.id)),
});
