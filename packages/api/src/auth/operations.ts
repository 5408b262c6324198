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
    description:
      "Checks the email and password. Without two-factor authentication it opens a session: the answer carries the user and sets the `service.auth` cookie (HttpOnly, 7 days, renewed while used). With two-factor authentication on, no session yet: the answer carries a `ticket`, valid 5 minutes, for `POST /panel/auth/login/2fa`. Failed attempts are throttled per address and account (`auth.too_many_attempts`, with `Retry-After`). Anyone may call; a sign-in is recorded in the audit log.",
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
    description:
      "Completes a sign-in that answered `twoFactorRequired: true`: the `ticket` from `POST /panel/auth/login` and a current TOTP code or an unused recovery code (used up by this). Opens the session (sets the `service.auth` cookie) and returns the user. The ticket works once; wrong codes are throttled like passwords. Anyone holding a ticket may call.",
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
    description:
      "Ends the session named by the `service.auth` cookie, if any, and clears the cookie. Anyone may call; without a session it changes nothing and still answers 204.",
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
    description:
      "Returns who is calling: the signed-in user, or the user a personal access token acts for, with operator rights, two-factor state, company and role. Any authenticated caller; it changes nothing.",
    tags,
    auth: "authenticated",
    response: MeResponse,
    handler: async ({ actor }) => auth.describeActor(actor),
  }),
  invitation: operation({
    method: "get",
    path: `${base}/invite/{token}`,
    summary: "Preview an invitation",
    description:
      "Shows what an invitation link is for (address, company, role, expiry) before it is accepted. Anyone holding the token may call; it changes nothing.",
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
    description:
      "Accepts an invitation from its mailed link: sets the account's password (at least 8 characters), activates the account, opens a session (sets the `service.auth` cookie) and returns the user. A link works once and expires after 7 days. Anyone holding the token may call; recorded in the audit log.",
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
    description:
      "Mails a link to set a new password, valid one hour, when the address belongs to an active account. It always answers 204 and takes as long either way, so it tells nobody whether an account exists. Anyone may call; a request for an existing account is recorded in the audit log.",
    tags,
    auth: "public",
    body: ForgotPasswordRequest,
    handler: ({ deps, input, request }) => auth.forgotPassword(deps, input, request.info),
  }),
  resetPassword: operation({
    method: "post",
    path: `${base}/reset-password`,
    summary: "Set a new password with a reset token; ends every session",
    description:
      "Sets a new password (at least 8 characters) with the token of a reset link; the token works once. Every session of the account ends, so it signs in again with the new password. Anyone holding the token may call; recorded in the audit log.",
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
    description:
      "Changes the signed-in user's password after checking the current one. The user's other sessions end; this one stays. For people only (a session, not an access token); recorded in the audit log.",
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
      summary: "Start TOTP enrolment",
      description:
        "Starts two-factor enrolment: makes a new TOTP secret and returns it with its `otpauth://` URI for an authenticator app. Nothing is enforced until `POST /panel/auth/2fa/enable` confirms a code. A session signed in more than 10 minutes ago must also send the current password. For the signed-in user only.",
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
      summary: "Enable TOTP; returns ten recovery codes once",
      description:
        "Turns two-factor authentication on with a live code from the enrolled secret and returns ten recovery codes, shown this once (each works once). The user's other sessions end and the user is told by mail. Needs a sign-in under 10 minutes old or the current password. For the signed-in user only; recorded in the audit log.",
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
      description:
        "Turns two-factor authentication off after checking the password and a current TOTP code or an unused recovery code; the secret and the recovery codes are deleted. For the signed-in user only; recorded in the audit log.",
      tags,
      auth: "session",
      body: TotpDisableRequest,
      errors: ["totp.not_enabled", "auth.invalid_password", "totp.invalid_code"],
      handler: ({ deps, actor, input }) => auth.disableTotp(deps, actor, input),
    }),
  },
};
