import { IdParams, InviteUserRequest, ListUsersQuery, UserResponse } from "@licensing/contracts";
import { users } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Users"];
const base = "/panel/users";

export const userOperations = {
  list: operation({
    method: "get",
    path: base,
    summary: "Users of a company and its subtree (Admin)",
    tags,
    auth: "authenticated",
    query: ListUsersQuery,
    response: z.array(UserResponse),
    errors: ["auth.company_out_of_scope", "auth.forbidden", "company.not_found"],
    handler: ({ deps, actor, input }) => users.listUsers(deps, actor, input),
  }),
  invite: operation({
    method: "post",
    path: `${base}/invite`,
    summary: "Invite a user to a company (Admin; Owner to grant owner); mails a link valid 7 days",
    tags,
    auth: "authenticated",
    body: InviteUserRequest,
    response: UserResponse,
    status: 201,
    errors: ["company.not_found", "auth.forbidden", "company.not_active", "user.already_exists"],
    handler: ({ deps, actor, input }) => users.inviteUser(deps, actor, input),
  }),
  resendInvite: operation({
    method: "post",
    path: `${base}/{id}/resend-invite`,
    summary: "Mail a new invitation link; the previous one stops working",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["user.not_found", "auth.forbidden", "auth.operator_required", "user.not_pending"],
    handler: ({ deps, actor, input }) => users.resendInvitation(deps, actor, input.id),
  }),
  deactivate: operation({
    method: "delete",
    path: `${base}/{id}`,
    summary: "Deactivate an account: sessions end, its access tokens are revoked",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["user.not_found", "auth.forbidden", "auth.operator_required", "operator.last_operator"],
    handler: ({ deps, actor, input }) => users.deactivateUser(deps, actor, input.id),
  }),
};
