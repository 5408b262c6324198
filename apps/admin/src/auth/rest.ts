import type {
  AcceptInviteRequest,
  AuthUserResponse,
  ChangePasswordRequest,
  ErrorResponse,
  ForgotPasswordRequest,
  InvitePreviewResponse,
  LoginRequest,
  LoginResponse,
  ResetPasswordRequest,
  TotpDisableRequest,
  TotpEnableRequest,
  TotpEnableResponse,
  TotpEnrollResponse,
  TwoFactorLoginRequest,
} from "@licensing/contracts";
import type { z } from "zod";
import { RestError } from "../lib/errors.ts";

// The session endpoints set and clear the cookie, which the tRPC router does not do (yet): these few
// calls go to the REST panel API, typed by the same contracts.
type In<T extends z.ZodType> = z.input<T>;

async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api/v1/panel/auth${path}`, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!res.ok) {
    const error = (await res.json().catch(() => null)) as ErrorResponse | null;
    throw new RestError(error ?? { code: "internal", message: `HTTP ${res.status}`, status: res.status });
  }
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export const authApi = {
  login: (body: In<typeof LoginRequest>) => call<LoginResponse>("POST", "/login", body),
  loginWithCode: (body: In<typeof TwoFactorLoginRequest>) =>
    call<AuthUserResponse>("POST", "/login/2fa", body),
  logout: () => call<void>("POST", "/logout"),
  previewInvite: (token: string) =>
    call<InvitePreviewResponse>("GET", `/invite/${encodeURIComponent(token)}`),
  acceptInvite: (body: In<typeof AcceptInviteRequest>) =>
    call<AuthUserResponse>("POST", "/accept-invite", body),
  forgotPassword: (body: In<typeof ForgotPasswordRequest>) => call<void>("POST", "/forgot-password", body),
  resetPassword: (body: In<typeof ResetPasswordRequest>) => call<void>("POST", "/reset-password", body),
  changePassword: (body: In<typeof ChangePasswordRequest>) => call<void>("POST", "/change-password", body),
  enrollTotp: () => call<z.infer<typeof TotpEnrollResponse>>("POST", "/2fa/enroll"),
  enableTotp: (body: In<typeof TotpEnableRequest>) =>
    call<z.infer<typeof TotpEnableResponse>>("POST", "/2fa/enable", body),
  disableTotp: (body: In<typeof TotpDisableRequest>) => call<void>("POST", "/2fa/disable", body),
};
