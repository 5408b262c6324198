import { IdParams, InviteUserRequest, ListUsersQuery, UserResponse } from "@licensing/contracts";
import { users } from "@licensing/core";
import { z } from "zod";
import { authedProcedure, router } from "../trpc.ts";

export const usersRouter = router({
  list: authedProcedure
    .input(ListUsersQuery)
    .output(z.array(UserResponse))
    .query(({ ctx, input }) => users.listUsers(ctx.deps, ctx.actor, input)),
  invite: authedProcedure
    .input(InviteUserRequest)
    .output(UserResponse)
    .mutation(({ ctx, input }) => users.inviteUser(ctx.deps, ctx.actor, input)),
  resendInvite: authedProcedure
    .input(IdParams)
    .output(z.void())
    .mutation(({ ctx, input }) => users.resendInvitation(ctx.deps, ctx.actor, input.id)),
  deactivate: authedProcedure
    .input(IdParams)
    .output(z.void())
    .mutation(({ ctx, input }) => users.deactivateUser(ctx.deps, ctx.actor, input.id)),
});
