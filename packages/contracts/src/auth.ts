import { z } from "zod";
import { CompanyRole, DisplayName, Email, Password, Timestamp, UserStatus, Uuid } from "./common.ts";
import { example } from "./examples.ts";

const Secret = z
  .string()
  .min(1)
  .max(512)
  .meta({ examples: [example.oneTimeToken] });
const OtpCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .meta({ description: "A current TOTP code, or a recovery code", examples: [example.totpCode] });
const EmailOut = z.string().meta({ examples: [example.email] });
const DisplayNameOut = z
  .string()
  .nullable()
  .meta({ examples: [example.displayName] });

export const LoginRequest = z.object({ email: Email, password: Password }).meta({ id: "LoginRequest" });

export const AuthUserResponse = z
  .object({ id: Uuid, email: EmailOut, displayName: DisplayNameOut, isOperator: z.boolean() })
  .meta({ id: "AuthUserResponse" });
export type AuthUserResponse = z.infer<typeof AuthUserResponse>;

export const LoginResponse = z
  .object({
    twoFactorRequired: z.boolean(),
    ticket: z
      .string()
      .nullable()
      .meta({ description: "For POST /panel/auth/login/2fa when twoFactorRequired", examples: [null] }),
    user: AuthUserResponse.nullable(),
  })
  .meta({ id: "LoginResponse" });
export type LoginResponse = z.infer<typeof LoginResponse>;

export const TwoFactorLoginRequest = z
  .object({ ticket: Secret, code: OtpCode })
  .meta({ id: "TwoFactorLoginRequest" });

export const MeResponse = z
  .object({
    id: Uuid,
    email: EmailOut,
    displayName: DisplayNameOut,
    isOperator: z.boolean(),
    totpEnabled: z.boolean(),
    companyId: Uuid.nullable(),
    role: CompanyRole.nullable(),
  })
  .meta({ id: "MeResponse" });
export type MeResponse = z.infer<typeof MeResponse>;

export const InvitePreviewResponse = z
  .object({
    email: EmailOut,
    companyName: z
      .string()
      .nullable()
      .meta({ description: "null for an operator invitation", examples: [example.companyName] }),
    role: z.enum(["owner", "admin", "viewer", "operator"]),
    expiresAt: Timestamp,
  })
  .meta({ id: "InvitePreviewResponse" });
export type InvitePreviewResponse = z.infer<typeof InvitePreviewResponse>;

export const InviteTokenParams = z.object({ token: Secret });
export const AcceptInviteRequest = z
  .object({ token: Secret, password: Password })
  .meta({ id: "AcceptInviteRequest" });
// Any text: a malformed address is answered like an unknown one (204, no mail), so the answer never
// depends on the address. Only a body without a string `email` is refused.
export const ForgotPasswordRequest = z
  .object({
    email: z.string().meta({
      description: "The account's address; one that is malformed or unknown gets the same 204 and no mail",
      examples: [example.email],
    }),
  })
  .meta({ id: "ForgotPasswordRequest" });
export const ResetPasswordRequest = z
  .object({ token: Secret, newPassword: Password })
  .meta({ id: "ResetPasswordRequest" });
export const ChangePasswordRequest = z
  .object({ currentPassword: Password, newPassword: Password })
  .meta({ id: "ChangePasswordRequest" });

export const TotpEnrollResponse = z
  .object({
    secret: z.string().meta({ description: "base32", examples: ["JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"] }),
    otpauthUri: z.string().meta({
      examples: [
        "otpauth://totp/Licensing%20Service:dana%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Licensing%20Service",
      ],
    }),
  })
  .meta({ id: "TotpEnrollResponse" });
/** Optional re-authentication for turning 2FA on: needed once the session is 10 minutes old. */
const ConfirmingPassword = Password.optional().meta({
  description:
    "The current password. Needed when the session was signed in more than 10 minutes ago " +
    "(otherwise 403 auth.reauthentication_required); a wrong one is auth.invalid_password.",
});
export const TotpEnrollRequest = z
  .object({ password: ConfirmingPassword })
  .meta({ id: "TotpEnrollRequest", description: "Optional body." });
export const TotpEnableRequest = z
  .object({ code: OtpCode, password: ConfirmingPassword })
  .meta({ id: "TotpEnableRequest" });
export const TotpEnableResponse = z
  .object({
    recoveryCodes: z.array(z.string()).meta({ examples: [["3f9a2c1e-7b4d8e60", "a0c5e9b1-d7a3f8c2"]] }),
  })
  .meta({ id: "TotpEnableResponse", description: "Shown once; each code works once." });
export const TotpDisableRequest = z
  .object({ password: Password, code: OtpCode })
  .meta({ id: "TotpDisableRequest" });

export const OperatorUserResponse = z
  .object({
    id: Uuid,
    email: EmailOut,
    displayName: DisplayNameOut,
    status: UserStatus,
    totpEnabled: z.boolean(),
    lastLoginAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "OperatorUserResponse" });
export type OperatorUserResponse = z.infer<typeof OperatorUserResponse>;

export const InviteOperatorRequest = z
  .object({ email: Email, displayName: DisplayName.optional() })
  .meta({ id: "InviteOperatorRequest" });
