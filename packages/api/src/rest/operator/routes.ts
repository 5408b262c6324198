import { IdParams, InviteOperatorRequest, OperatorUserResponse } from "@licensing/contracts";
import { operators } from "@licensing/core";
import { z } from "zod";
import { route } from "../route.ts";

const tags = ["Operator"];

export const operatorRoutes = [
  route({
    method: "get",
    path: "/panel/operator/users",
    summary: "Every operator account",
    tags,
    auth: "authenticated",
    response: z.array(OperatorUserResponse),
    errors: ["auth.operator_required"],
    handler: ({ deps, actor }) => operators.listOperators(deps, actor),
  }),
  route({
    method: "post",
    path: "/panel/operator/users/invite",
    summary: "Invite an operator by mail",
    tags,
    auth: "authenticated",
    body: InviteOperatorRequest,
    response: OperatorUserResponse,
    errors: ["auth.operator_required", "user.already_exists"],
    handler: ({ deps, actor, body }) => operators.inviteOperator(deps, actor, body),
  }),
  route({
    method: "post",
    path: "/panel/operator/users/{id}/promote",
    summary: "Grant operator rights",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: OperatorUserResponse,
    errors: ["auth.operator_required", "user.not_found"],
    handler: ({ deps, actor, params }) => operators.setOperator(deps, actor, params.id, true),
  }),
  route({
    method: "post",
    path: "/panel/operator/users/{id}/demote",
    summary: "Revoke operator rights",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: OperatorUserResponse,
    errors: ["auth.operator_required", "user.not_found", "operator.last_operator"],
    handler: ({ deps, actor, params }) => operators.setOperator(deps, actor, params.id, false),
  }),
];
