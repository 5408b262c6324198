import { IdParams, InviteUserRequest, ListUsersQuery, UserResponse } from "@licensing/contracts";
import { users } from "@licensing/core";
import { z } from "zod";
import { route } from "../route.ts";

const tags = ["Users"];
const base = "/panel/users";

export const userRoutes = [
  route({
    method: "get",
    path: base,
    summary: "Users of a company and its subtree (Admin)",
    tags,
    auth: "authenticated",
    query: ListUsersQuery,
    response: z.array(UserResponse),
    errors: ["auth.company_out_of_scope", "auth.forbidden", "company.not_found"],
    handler: ({ deps, actor, query }) => users.listUsers(deps, actor, query),
  }),
  route({
    method: "post",
    path: `${base}/invite`,
    summary: "Invite a user to a company (Admin; Owner to grant owner); mails a link valid 7 days",
    tags,
    auth: "authenticated",
    body: InviteUserRequest,
    response: UserResponse,
    status: 201,
    errors: ["company.not_found", "auth.forbidden", "company.not_active", "user.already_exists"],
    handler: ({ deps, actor, body }) => users.inviteUser(deps, actor, body),
  }),
  route({
    method: "post",
    path: `${base}/{id}/resend-invite`,
    summary: "Mail a new invitation link; the previous one stops working",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["user.not_found", "auth.forbidden", "auth.operator_required", "user.not_pending"],
    handler: ({ deps, actor, params }) => users.resendInvitation(deps, actor, params.id),
  }),
  route({
    method: "delete",
    path: `${base}/{id}`,
    summary: "Deactivate an account: sessions end, its access tokens are revoked",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["user.not_found", "auth.forbidden", "auth.operator_required", "operator.last_operator"],
    handler: ({ deps, actor, params }) => users.deactivateUser(deps, actor, params.id),
  }),
];
