import {
  ApiTokenResponse,
  CreateApiTokenRequest,
  CreateApiTokenResponse,
  IdParams,
  ListApiTokensQuery,
} from "@licensing/contracts";
import { apiTokens } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["API tokens"];
const base = "/panel/api-tokens";

export const apiTokenOperations = {
  list: operation({
    method: "get",
    path: base,
    summary: "Personal access tokens of the visible subtree",
    description:
      "Personal access tokens of the caller's visible subtree (or of `companyId`'s subtree), newest first, never with their secrets. Any authenticated caller; it changes nothing.",
    tags,
    auth: "authenticated",
    query: ListApiTokensQuery,
    response: z.array(ApiTokenResponse),
    errors: ["auth.company_out_of_scope"],
    handler: ({ deps, actor, input }) => apiTokens.listApiTokens(deps, actor, input),
  }),
  create: operation({
    method: "post",
    path: base,
    summary: "Create a personal access token",
    description:
      "Creates a personal access token `svc_pat_…` for scripts and integrations (`Authorization: Bearer …`); it acts as an Admin of the company and the companies below it. The secret is in this answer only. A token made with a token expires no later than it. Needs Admin on the company; recorded in the audit log.",
    tags,
    auth: "authenticated",
    body: CreateApiTokenRequest,
    response: CreateApiTokenResponse,
    status: 201,
    errors: ["api_token.name_required", "api_token.invalid_expiry", "company.not_found", "auth.forbidden"],
    handler: ({ deps, actor, input }) => apiTokens.createApiToken(deps, actor, input),
  }),
  revoke: operation({
    method: "delete",
    path: `${base}/{id}`,
    summary: "Revoke a personal access token",
    description:
      "Revokes a token at once; revoking again changes nothing. Needs Admin on its company; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["api_token.not_found", "auth.forbidden"],
    handler: ({ deps, actor, input }) => apiTokens.revokeApiToken(deps, actor, input.id),
  }),
};
