import { z } from "zod";
import { LeaseHolder, Machine } from "./client.ts";
import { Timestamp } from "./common.ts";

export const errorKinds = [
  "Validation",
  "Unauthorized",
  "Forbidden",
  "NotFound",
  "Conflict",
  "PayloadTooLarge",
  "HeaderTooLarge",
  "RequestTimeout",
  "TooManyRequests",
  "Gone",
  "Failure",
  "Unavailable",
] as const;
export type ErrorKind = (typeof errorKinds)[number];

/** The catalogue of machine-readable error codes, with the kind each one always has. */
export const errorCatalogue = {
  "request.invalid": "Validation",
  "request.malformed_json": "Validation",
  "request.too_large": "PayloadTooLarge",
  "request.invalid_encoding": "Validation",
  "request.malformed_http": "Validation",
  "request.header_too_large": "HeaderTooLarge",
  "request.timeout": "RequestTimeout",
  "request.batch_too_large": "Validation",
  "route.not_found": "NotFound",
  "rate_limit.exceeded": "TooManyRequests",
  internal: "Failure",
  "database.unavailable": "Unavailable",

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
  "auth.reauthentication_required": "Forbidden",
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

  "company.not_found": "NotFound",
  "company.invalid_slug": "Validation",
  "company.slug_taken": "Conflict",
  "company.invalid_parent": "Validation",
  "company.not_active": "Validation",
  "user.not_pending": "Conflict",
  "api_token.name_required": "Validation",
  "api_token.invalid_expiry": "Validation",
  "api_token.not_found": "NotFound",
  "audit.invalid_format": "Validation",
  "audit.invalid_range": "Validation",
  "analytics.range_too_large": "Validation",
  "analytics.invalid_range": "Validation",

  "template.not_found": "NotFound",
  "template.product_code_taken": "Conflict",
  "template.archived": "Conflict",
  "template.invalid_config_schema": "Validation",
  "template.invalid_defaults": "Validation",
  "template.version_not_found": "NotFound",
  "signing_key.not_found": "NotFound",
  "signing_key.not_inactive": "Conflict",

  "license.not_found": "NotFound",
  "license.company_not_active": "Validation",
  "license.invalid_status": "Validation",
  "license.invalid_cursor": "Validation",
  "license.cursor_with_page": "Validation",
  "license.bulk_too_large": "Validation",
  "license.bulk_empty": "Validation",
  "license.invalid_config": "Validation",
  "license.invalid_expiry": "Validation",
  "license.invalid_binding": "Validation",
  "license.same_company": "Validation",
  "license.already_revoked": "Conflict",
  "license.invalid_transition": "Conflict",
  "idempotency.key_reused": "Conflict",
  "idempotency.invalid_key": "Validation",

  "license.not_active": "Validation",
  "license.revoked": "Forbidden",
  "activation.not_found": "NotFound",
  "activation.fingerprint_mismatch": "Validation",
  "activation.fingerprint_required": "Validation",
  "activation.not_bound": "Conflict",
  "activation.seat_limit_reached": "Conflict",
  "activation.device_budget_exhausted": "TooManyRequests",
  "activation.machine_limit_reached": "Conflict",
  "lease.not_found": "NotFound",
  "lease.not_floating": "Conflict",
  "lease.seats_exhausted": "Conflict",
  "lease.released": "Gone",
  "lease.borrow_not_allowed": "Forbidden",
  "lease.borrow_too_long": "Validation",
  "offline.request_invalid": "Validation",
  "offline.receipt_invalid": "Validation",
  "hmac.missing": "Unauthorized",
  "hmac.malformed": "Unauthorized",
  "hmac.stale": "Unauthorized",
  "hmac.mismatch": "Unauthorized",

  "webhook.not_found": "NotFound",
  "webhook.invalid_url": "Validation",
  "webhook.url_not_allowed": "Validation",
  "webhook.secret_too_short": "Validation",
  "webhook.invalid_events": "Validation",
  "webhook_delivery.not_found": "NotFound",
  "hmac.v2_required": "Unauthorized",
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof errorCatalogue;

/**
 * What some errors carry beside code, message and status, by code: the typed details an `AppError` holds
 * and the error mapping writes into the body.
 */
export const ErrorDetailFields = {
  retryAt: Timestamp.meta({
    description:
      "`activation.device_budget_exhausted`: when the oldest counted new device leaves the window and one may activate again; `lease.seats_exhausted`: when the first live lease expires unless renewed",
  }),
  machines: z.array(Machine).meta({
    description:
      "`activation.seat_limit_reached`, `activation.machine_limit_reached`: the machines holding the seats (or registered), so one can be freed",
  }),
  holders: z.array(LeaseHolder).meta({
    description: "`lease.seats_exhausted`: the machines holding the leases, soonest to expire first",
  }),
  revocation: z.string().meta({
    description:
      '`license.revoked`: the signed revocation (JWS, typ license-revocation: `{lid, status: "Revoked", revokedAt, iat}`) the SDK verifies with the template\'s key and turns into `Revoked`',
  }),
};
export interface ErrorDetailsByCode {
  "activation.device_budget_exhausted": { retryAt: string };
  "activation.seat_limit_reached": { machines: Machine[] };
  "activation.machine_limit_reached": { machines: Machine[] };
  "lease.seats_exhausted": { holders: LeaseHolder[]; retryAt: string };
  "license.revoked": { revocation: string };
}
export type ErrorDetails<C extends ErrorCode> = C extends keyof ErrorDetailsByCode
  ? ErrorDetailsByCode[C]
  : undefined;

export const ErrorResponse = z
  .object({
    code: z
      .string()
      .meta({ description: "Stable; what a program branches on", examples: ["license.not_found"] }),
    message: z
      .string()
      .meta({ description: "For people; may change", examples: ["No license with this key"] }),
    status: z.int().meta({ description: "The HTTP status again", examples: [404] }),
    retryAt: ErrorDetailFields.retryAt.optional(),
    machines: ErrorDetailFields.machines.optional(),
    holders: ErrorDetailFields.holders.optional(),
    revocation: ErrorDetailFields.revocation.optional(),
  })
  .meta({ id: "ErrorResponse", description: "Every error of both contours has this body." });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
