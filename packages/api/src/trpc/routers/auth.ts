import {
  AcceptInviteRequest,
  AuthUserResponse,
  ChangePasswordRequest,
  ForgotPasswordRequest,
  InvitePreviewResponse,
  InviteTokenParams,
  LoginRequest,
  LoginResponse,
  MeResponse,
  ResetPasswordRequest,
  TotpDisableRequest,
  TotpEnableRequest,
  TotpEnableResponse,
  TotpEnrollRequest,
  TotpEnrollResponse,
  TwoFactorLoginRequest,
} from "@licensing/contracts";
import { auth, closeSession } from "@licensing/core";
import { z } from "zod";
import {
  authedProcedure,
  publicProcedure,
  requestOf,
  router,
  sessionIdOf,
  sessionProcedure,
} from "../trpc.ts";

/** The panel's sign-in and account operations, as under REST /panel/auth. */
export const authRouter = router({
  login: publicProcedure
    .input(LoginRequest)
    .output(LoginResponse)
    .mutation(async ({ ctx, input }) => {
      const { response, sessionId } = await auth.login(ctx.deps, input, requestOf(ctx));
      if (sessionId) ctx.setSessionCookie(sessionId);
      return response;
    }),
  loginTwoFactor: publicProcedure
    .input(TwoFactorLoginRequest)
    .output(AuthUserResponse)
    .mutation(async ({ ctx, input }) => {
      const { user, sessionId } = await auth.loginWithSecondFactor(ctx.deps, input, requestOf(ctx));
      ctx.setSessionCookie(sessionId);
      return user;
    }),
  logout: publicProcedure.output(z.void()).mutation(async ({ ctx }) => {
    const sessionId = sessionIdOf(ctx);
    if (sessionId) await closeSession(ctx.deps.db, sessionId);
    ctx.setSessionCookie(null);
  }),
  me: authedProcedure.output(MeResponse).query(({ ctx }) => auth.describeActor(ctx.actor)),
  invitation: publicProcedure
    .input(InviteTokenParams)
    .output(InvitePreviewResponse)
    .query(({ ctx, input }) => auth.previewInvitation(ctx.deps, input.token)),
  acceptInvite: publicProcedure
    .input(AcceptInviteRequest)
    .output(AuthUserResponse)
    .mutation(async ({ ctx, input }) => {
      const { user, sessionId } = await auth.acceptInvitation(ctx.deps, input, requestOf(ctx));
      ctx.setSessionCookie(sessionId);
      return user;
    }),
  forgotPassword: publicProcedure
    .input(ForgotPasswordRequest)
    .output(z.void())
    .mutation(({ ctx, input }) => auth.forgotPassword(ctx.deps, input, requestOf(ctx))),
  resetPassword: publicProcedure
    .input(ResetPasswordRequest)
    .output(z.void())
    .mutation(({ ctx, input }) => auth.resetPassword(ctx.deps, input, requestOf(ctx))),
  changePassword: sessionProcedure
    .input(ChangePasswordRequest)
    .output(z.void())
    .mutation(({ ctx, input }) => auth.changePassword(ctx.deps, ctx.actor, input)),
  twoFactor: router({
    enroll: sessionProcedure
      .input(TotpEnrollRequest.optional())
      .output(TotpEnrollResponse)
      .mutation(({ ctx, input }) => auth.enrollTotp(ctx.deps, ctx.actor, input)),
    enable: sessionProcedure
      .input(TotpEnableRequest)
      .output(TotpEnableResponse)
      .mutation(({ ctx, input }) => auth.enableTotp(ctx.deps, ctx.actor, input)),
    disable: sessionProcedure
      .input(TotpDisableRequest)
      .output(z.void())
      .mutation(({ ctx, input }) => auth.disableTotp(ctx.deps, ctx.actor, input)),
  }),
});
