import {
  IdParams,
  InviteOperatorRequest,
  OperatorLicensePage,
  OperatorLicenseQuery,
  OperatorOverviewResponse,
  OperatorTenantPage,
  OperatorTenantQuery,
  OperatorUserResponse,
} from "@licensing/contracts";
import { operators } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Operator"];

export const operatorOperations = {
  overview: operation({
    method: "get",
    reads: "replica",
    path: "/panel/operator/overview",
    summary: "Platform-wide counts",
    description:
      "Counts for the operator console: companies, licenses by status, trials, live activations, licenses expiring within 30 days, templates, signing keys by status, webhook endpoints and the last 24 hours of webhook deliveries by outcome. Operators only; it changes nothing.",
    tags,
    auth: "authenticated",
    response: OperatorOverviewResponse,
    errors: ["auth.operator_required"],
    handler: ({ deps, actor }) => operators.getOverview(deps, actor),
  }),
  tenants: operation({
    method: "get",
    reads: "replica",
    path: "/panel/operator/tenants",
    summary: "Root companies with the size of their subtree",
    description:
      "Root companies (tenants), paged, each with the number of companies below it and the number of licenses in its whole subtree; `search` matches part of the name or slug. Operators only; it changes nothing.",
    tags,
    auth: "authenticated",
    query: OperatorTenantQuery,
    response: OperatorTenantPage,
    errors: ["auth.operator_required"],
    handler: ({ deps, actor, input }) => operators.listTenants(deps, actor, input),
  }),
  licenses: operation({
    method: "get",
    reads: "replica",
    path: "/panel/operator/licenses",
    summary: "Every license, newest first",
    description:
      "Every license of the platform, newest first and paged, with its company's name and its template's product code; filters by status, template, company (that company's own licenses) and trial. `total` is exact up to 1,000 matches and an estimate beyond, as `totalIsEstimate` says. Pages are asked by `page` or by `after` (the `nextCursor` of the page before), as on `GET /panel/licenses`. Operators only; it changes nothing.",
    tags,
    auth: "authenticated",
    query: OperatorLicenseQuery,
    response: OperatorLicensePage,
    errors: [
      "auth.operator_required",
      "license.invalid_status",
      "license.invalid_cursor",
      "license.cursor_with_page",
      "company.not_found",
    ],
    handler: ({ deps, actor, input }) => operators.listAllLicenses(deps, actor, input),
  }),
  users: {
    list: operation({
      method: "get",
      reads: "replica",
      path: "/panel/operator/users",
      summary: "Every operator account",
      description:
        "Every operator account with its status, two-factor state and last sign-in. Operators only; it changes nothing.",
      tags,
      auth: "authenticated",
      response: z.array(OperatorUserResponse),
      errors: ["auth.operator_required"],
      handler: ({ deps, actor }) => operators.listOperators(deps, actor),
    }),
    invite: operation({
      method: "post",
      path: "/panel/operator/users/invite",
      summary: "Invite an operator by mail",
      description:
        "Creates a pending operator account and mails it an invitation link valid 7 days, accepted with `POST /panel/auth/accept-invite`. Operators only; recorded in the audit log.",
      tags,
      auth: "authenticated",
      body: InviteOperatorRequest,
      response: OperatorUserResponse,
      errors: ["auth.operator_required", "user.already_exists"],
      handler: ({ deps, actor, input }) => operators.inviteOperator(deps, actor, input),
    }),
    promote: operation({
      method: "post",
      path: "/panel/operator/users/{id}/promote",
      summary: "Grant operator rights",
      description:
        "Gives an existing account operator rights: the whole platform, every company. Operators only; recorded in the audit log.",
      tags,
      auth: "authenticated",
      params: IdParams,
      response: OperatorUserResponse,
      errors: ["auth.operator_required", "user.not_found"],
      handler: ({ deps, actor, input }) => operators.setOperator(deps, actor, input.id, true),
    }),
    demote: operation({
      method: "post",
      path: "/panel/operator/users/{id}/demote",
      summary: "Revoke operator rights",
      description:
        "Takes operator rights away from an account; the last active operator keeps them (`operator.last_operator`). Operators only; recorded in the audit log.",
      tags,
      auth: "authenticated",
      params: IdParams,
      response: OperatorUserResponse,
      errors: ["auth.operator_required", "user.not_found", "operator.last_operator"],
      handler: ({ deps, actor, input }) => operators.setOperator(deps, actor, input.id, false),
    }),
  },
};
