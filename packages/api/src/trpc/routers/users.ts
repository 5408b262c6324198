import { IdParams, InviteUserRequest, ListUsersQuery } from "@licensing/contracts";
import { users } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const usersRouter = router({
  list: authedProcedure
    .input(ListUsersQuery)
    .query(({ ctx, input }) => users.listUsers(ctx.deps, ctx.actor, input)),
  invite: authedProcedure
    .input(InviteUserRequest)
    .mutation(({ ctx, input }) => users.inviteUser(ctx.deps, ctx.actor, input)),
  resendInvite: authedProcedure
    .input(IdParams)
    .mutation(({ ctx, input }) => users.resendInvitation(ctx.deps, ctx.actor, input.id)),
  deactivate: authedProcedure
    .input(IdParams)
    .mutation(({ ctx, input }) => users.deactivateUser(ctx.deps, ctx.actor, input.id)),
});
