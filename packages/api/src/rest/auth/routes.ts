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
import { requestInfo } from "../../http/request-info.ts";
import { clearSessionCookie, readSessionCookie, setSessionCookie } from "../../http/session-cookie.ts";
import { route } from "../route.ts";

const tags = ["Panel auth"];
const base = "/panel/auth";

export const authRoutes = [
  route({
    method: "post",
    path: `${base}/login`,
    summary: "Sign in with email and password",
    tags,
    auth: "public",
    body: LoginRequest,
    response: LoginResponse,
    errors: ["auth.invalid_credentials", "auth.too_many_attempts"],
    async handler({ deps, body, req, res, cookies }) {
      const { response, sessionId } = await auth.login(deps, body, requestInfo(req));
      if (sessionId) setSessionCookie(res, sessionId, cookies);
      return response;
    },
  }),
  route({
    method: "post",
    path: `${base}/login/2fa`,
    summary: "Complete a sign-in with a TOTP or recovery code",
    tags,
    auth: "public",
    body: TwoFactorLoginRequest,
    response: AuthUserResponse,
    errors: ["auth.invalid_ticket", "auth.invalid_code", "auth.too_many_attempts"],
    async handler({ deps, body, req, res, cookies }) {
      const { user, sessionId } = await auth.loginWithSecondFactor(deps, body, requestInfo(req));
      setSessionCookie(res, sessionId, cookies);
      return user;
    },
  }),
  route({
    method: "post",
    path: `${base}/logout`,
    summary: "End the current session",
    tags,
    auth: "public",
    async handler({ deps, req, res, cookies }) {
      const sessionId = readSessionCookie(req);
      if (sessionId) await closeSession(deps.db, sessionId);
      clearSessionCookie(res, cookies);
    },
  }),
  route({
    method: "get",
    path: `${base}/me`,
    summary: "The current user (session or access token)",
    tags,
    auth: "authenticated",
    response: MeResponse,
    handler: async ({ actor }) => auth.describeActor(actor),
  }),
  route({
    method: "get",
    path: `${base}/invite/{token}`,
    summary: "Preview an invitation",
    tags,
    auth: "public",
    params: InviteTokenParams,
    response: InvitePreviewResponse,
    errors: ["invitation.not_found"],
    handler: ({ deps, params }) => auth.previewInvitation(deps, params.token),
  }),
  route({
    method: "post",
    path: `${base}/accept-invite`,
    summary: "Accept an invitation: set the password and sign in",
    tags,
    auth: "public",
    body: AcceptInviteRequest,
    response: AuthUserResponse,
    errors: ["invitation.not_found", "auth.password_too_short"],
    async handler({ deps, body, req, res, cookies }) {
      const { user, sessionId } = await auth.acceptInvitation(deps, body, requestInfo(req));
      setSessionCookie(res, sessionId, cookies);
      return user;
    },
  }),
  route({
    method: "post",
    path: `${base}/forgot-password`,
    summary: "Mail a password reset link (always 204)",
    tags,
    auth: "public",
    body: ForgotPasswordRequest,
    handler: ({ deps, body, req }) => auth.forgotPassword(deps, body, requestInfo(req)),
  }),
  route({
    method: "post",
    path: `${base}/reset-password`,
    summary: "Set a new password with a reset token; ends every session",
    tags,
    auth: "public",
    body: ResetPasswordRequest,
    errors: ["auth.reset_token_invalid", "auth.password_too_short"],
    handler: ({ deps, body, req }) => auth.resetPassword(deps, body, requestInfo(req)),
  }),
  route({
    method: "post",
    path: `${base}/change-password`,
    summary: "Change the password; ends the other sessions",
    tags,
    auth: "session",
    body: ChangePasswordRequest,
    errors: ["auth.invalid_password", "auth.password_too_short"],
    handler: ({ deps, actor, body }) => auth.changePassword(deps, actor, body),
  }),
  route({
    method: "post",
    path: `${base}/2fa/enroll`,
    summary: "Start TOTP enrolment (a sign-in under 10 minutes old, or the password)",
    tags,
    auth: "session",
    body: TotpEnrollRequest.optional(),
    response: TotpEnrollResponse,
    errors: ["totp.already_enabled", "auth.reauthentication_required", "auth.invalid_password"],
    handler: ({ deps, actor, body }) => auth.enrollTotp(deps, actor, body),
  }),
  route({
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
    handler: ({ deps, actor, body }) => auth.enableTotp(deps, actor, body),
  }),
  route({
    method: "post",
    path: `${base}/2fa/disable`,
    summary: "Disable TOTP (password and code)",
    tags,
    auth: "session",
    body: TotpDisableRequest,
    errors: ["totp.not_enabled", "auth.invalid_password", "totp.invalid_code"],
    handler: ({ deps, actor, body }) => auth.disableTotp(deps, actor, body),
  }),
];
