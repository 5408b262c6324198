import { z } from "zod";

export const errorKinds = [
  "Validation",
  "Unauthorized",
  "Forbidden",
  "NotFound",
  "Conflict",
  "PayloadTooLarge",
  "TooManyRequests",
  "Failure",
] as const;
export type ErrorKind = (typeof errorKinds)[number];

/** The catalogue of machine-readable error codes, with the kind each one always has. */
export const errorCatalogue = {
  "request.invalid": "Validation",
  "request.malformed_json": "Validation",
  "request.too_large": "PayloadTooLarge",
  "route.not_found": "NotFound",
  "rate_limit.exceeded": "TooManyRequests",
  internal: "Failure",

  "auth.unauthenticated": "Unauthorized",
  "auth.invalid_credentials": "Unauthorized",
  "auth.invalid_ticket": "Unauthorized",
  "auth.invalid_code": "Unauthorized",
  "auth.invalid_token": "Unauthorized",
  "auth.session_required": "Unauthorized",
  "auth.too_many_attempts": "TooManyRequests",
  "auth.cross_origin": "Forbidden",
  "auth.operator_required": "Forbidden",
  "auth.forbidden": "Forbidden",
  "auth.company_out_of_scope": "Forbidden",
  "auth.invalid_password": "Validation",
  "auth.password_too_short": "Validation",
  "auth.reset_token_invalid": "Validation",
  "totp.invalid_code": "Validation",
  "totp.not_enrolled": "Conflict",
  "totp.already_enabled": "Conflict",
  "totp.not_enabled": "Conflict",

  "invitation.not_found": "NotFound",
  "user.not_found": "NotFound",
  "user.already_exists": "Conflict",
  "operator.last_operator": "Conflict",
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof errorCatalogue;

export const ErrorResponse = z
  .object({
    code: z.string().meta({ example: "auth.invalid_credentials" }),
    message: z.string(),
    status: z.int(),
  })
  .meta({ id: "ErrorResponse", description: "Every error of both contours has this body." });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
