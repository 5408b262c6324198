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
    summary: "Users of a company and its subtree",
    description:
      "Accounts of a company and its subtree (`companyId`); without it, every account for operators and the caller's own subtree for others. Needs Admin there; it changes nothing.",
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
    summary: "Invite a user to a company",
    description:
      "Creates (or re-opens) a pending account in a company with a role and mails an invitation link valid 7 days. Needs Admin on the company, and Owner to grant the owner role; recorded in the audit log.",
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
    summary: "Mail a new invitation link",
    description:
      "Mails a fresh invitation link to a pending account; the previous link stops working. Needs Admin on the account's company (an operator account: an operator); recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["user.not_found", "auth.forbidden", "auth.operator_required", "user.not_pending"],
    handler: ({ deps, actor, input }) => users.resendInvitation(deps, actor, input.id),
  }),
  deactivate: operation({
    method: "delete",
    path: `${base}/{id}`,
    summary: "Deactivate an account",
    description:
      "Deactivates an account: its sessions end, its pending links stop working and the access tokens that act for it are revoked, in one transaction. Deactivating again changes nothing. Needs Admin on its company; an operator account needs an operator, and the last active operator stays. Recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["user.not_found", "auth.forbidden", "auth.operator_required", "operator.last_operator"],
    handler: ({ deps, actor, input }) => users.deactivateUser(deps, actor, input.id),
  }),
};
