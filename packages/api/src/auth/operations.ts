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
import { operation } from "../operation/operation.ts";

const tags = ["Panel auth"];
const base = "/panel/auth";

/** Sign-in and the account: every call counts against the auth contour's rate limit. */
export const authOperations = {
  login: operation({
    method: "post",
    path: `${base}/login`,
    summary: "Sign in with email and password",
    tags,
    auth: "public",
    body: LoginRequest,
    response: LoginResponse,
    errors: ["auth.invalid_credentials", "auth.too_many_attempts"],
    async handler({ deps, input, request }) {
      const { response, sessionId } = await auth.login(deps, input, request.info);
      if (sessionId) request.setSessionCookie(sessionId);
      return response;
    },
  }),
  loginTwoFactor: operation({
    method: "post",
    path: `${base}/login/2fa`,
    summary: "Complete a sign-in with a TOTP or recovery code",
    tags,
    auth: "public",
    body: TwoFactorLoginRequest,
    response: AuthUserResponse,
    errors: ["auth.invalid_ticket", "auth.invalid_code", "auth.too_many_attempts"],
    async handler({ deps, input, request }) {
      const { user, sessionId } = await auth.loginWithSecondFactor(deps, input, request.info);
      request.setSessionCookie(sessionId);
      return user;
    },
  }),
  logout: operation({
    method: "post",
    path: `${base}/logout`,
    summary: "End the current session",
    tags,
    auth: "public",
    async handler({ deps, request }) {
      if (request.sessionId) await closeSession(deps.db, request.sessionId);
      request.setSessionCookie(null);
    },
  }),
  me: operation({
    method: "get",
    path: `${base}/me`,
    summary: "The current user (session or access token)",
    tags,
    auth: "authenticated",
    response: MeResponse,
    handler: async ({ actor }) => auth.describeActor(actor),
  }),
  invitation: operation({
    method: "get",
    path: `${base}/invite/{token}`,
    summary: "Preview an invitation",
    tags,
    auth: "public",
    params: InviteTokenParams,
    response: InvitePreviewResponse,
    errors: ["invitation.not_found"],
    handler: ({ deps, input }) => auth.previewInvitation(deps, input.token),
  }),
  acceptInvite: operation({
    method: "post",
    path: `${base}/accept-invite`,
    summary: "Accept an invitation: set the password and sign in",
    tags,
    auth: "public",
    body: AcceptInviteRequest,
    response: AuthUserResponse,
    errors: ["invitation.not_found", "auth.password_too_short"],
    async handler({ deps, input, request }) {
      const { user, sessionId } = await auth.acceptInvitation(deps, input, request.info);
      request.setSessionCookie(sessionId);
      return user;
    },
  }),
  forgotPassword: operation({
    method: "post",
    path: `${base}/forgot-password`,
    summary: "Mail a password reset link (always 204)",
    tags,
    auth: "public",
    body: ForgotPasswordRequest,
    handler: ({ deps, input, request }) => auth.forgotPassword(deps, input, request.info),
  }),
  resetPassword: operation({
    method: "post",
    path: `${base}/reset-password`,
    summary: "Set a new password with a reset token; ends every session",
    tags,
    auth: "public",
    body: ResetPasswordRequest,
    errors: ["auth.reset_token_invalid", "auth.password_too_short"],
    handler: ({ deps, input, request }) => auth.resetPassword(deps, input, request.info),
  }),
  changePassword: operation({
    method: "post",
    path: `${base}/change-password`,
    summary: "Change the password; ends the other sessions",
    tags,
    auth: "session",
    body: ChangePasswordRequest,
    errors: ["auth.invalid_password", "auth.password_too_short"],
    handler: ({ deps, actor, input }) => auth.changePassword(deps, actor, input),
  }),
  twoFactor: {
    enroll: operation({
      method: "post",
      path: `${base}/2fa/enroll`,
      summary: "Start TOTP enrolment (a sign-in under 10 minutes old, or the password)",
      tags,
      auth: "session",
      body: TotpEnrollRequest.optional(),
      response: TotpEnrollResponse,
      errors: ["totp.already_enabled", "auth.reauthentication_required", "auth.invalid_password"],
      handler: ({ deps, actor, input }) => auth.enrollTotp(deps, actor, input),
    }),
    enable: operation({
      method: "post",
      path: `${base}/2fa/enable`,
      summary: "Enable TOTP with a live code; returns ten recovery codes once, ends the other sessions",
      tags,
      auth: "session",
      body: TotpEnableRequest,
      response: TotpEnableResponse,
      errors: [
        "totp.not_enrolled",
        "totp.invalid_code",
        "auth.reauthentication_required",
        "auth.invalid_password",
      ],
      handler: ({ deps, actor, input }) => auth.enableTotp(deps, actor, input),
    }),
    disable: operation({
      method: "post",
      path: `${base}/2fa/disable`,
      summary: "Disable TOTP (password and code)",
      tags,
      auth: "session",
      body: TotpDisableRequest,
      errors: ["totp.not_enabled", "auth.invalid_password", "totp.invalid_code"],
      handler: ({ deps, actor, input }) => auth.disableTotp(deps, actor, input),
    }),
  },
};
