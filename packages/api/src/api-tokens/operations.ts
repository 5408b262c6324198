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
    summary: "Personal access tokens of the visible subtree, without secrets",
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
    summary: "Create a token (Admin on the company); the secret is returned only here",
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
    summary: "Revoke a token (Admin on its company)",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["api_token.not_found", "auth.forbidden"],
    handler: ({ deps, actor, input }) => apiTokens.revokeApiToken(deps, actor, input.id),
  }),
};
