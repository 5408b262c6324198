import type { ErrorCode, ErrorDetailsByCode } from "@licensing/contracts";
import revocationVector from "@licensing/protocol/vectors/revocation.json" with { type: "json" };

/**
 * A message each error code is sent with, as the reference shows it in its examples. The messages are
 * written where the errors are raised (`fail(code, message)`); these are samples of them, with values
 * filled in, so a reader sees a real answer. Typed by the catalogue: a new code needs its example here.
 */
export const errorExampleMessages: Record<ErrorCode, string> = {
  "request.invalid": "body.companyId: Invalid UUID",
  "request.malformed_json": "The request body is not valid JSON",
  "request.too_large": "The request body exceeds 1 MiB (after decompression)",
  "request.invalid_encoding": "Unsupported Content-Encoding: send identity, gzip, deflate or br",
  "request.malformed_http": "The request is not valid HTTP",
  "request.header_too_large": "The request headers are too large",
  "request.timeout": "The request was not received in time",
  "request.batch_too_large": "A tRPC request may batch at most 20 procedure calls; this one has 25",
  "route.not_found": "No route for GET /api/v1/panel/licences",
  "rate_limit.exceeded": "Too many requests: at most 100 per minute per IP on this API",
  internal: "An unexpected error occurred; it has been logged",
  "database.unavailable": "The database is unavailable; retry shortly",

  "auth.unauthenticated": "Sign in or send a personal access token",
  "auth.invalid_credentials": "The email or password is wrong",
  "auth.invalid_ticket": "ticket: the ticket is unknown, expired or already used",
  "auth.invalid_code": "code: the code is neither a current TOTP code nor an unused recovery code",
  "auth.invalid_token": "The access token has been revoked",
  "auth.session_required": "This operation needs a signed-in session, not an access token",
  "auth.too_many_attempts": "Too many failed attempts; try again in 60 seconds",
  "auth.cross_origin": "Cross-origin requests may not change state with a session cookie",
  "auth.operator_required": "This operation needs an operator account",
  "auth.forbidden": "This operation needs the admin role on company 7c9e6679-7425-40de-944b-e07fc1f90ae7",
  "auth.company_out_of_scope":
    "Company 7c9e6679-7425-40de-944b-e07fc1f90ae7 is outside the companies visible to you",
  "auth.reauthentication_required":
    "password: confirm with your current password; this session was signed in more than 10 minutes ago",
  "auth.invalid_password": "currentPassword: the password is wrong",
  "auth.password_too_short": "password: must be at least 8 characters",
  "auth.reset_token_invalid": "token: the reset token is unknown, expired or already used",
  "totp.invalid_code": "code: the code is not valid for the enrolled secret",
  "totp.not_enrolled": "Call /auth/2fa/enroll first",
  "totp.already_enabled": "Two-factor authentication is already enabled",
  "totp.not_enabled": "Two-factor authentication is not enabled",

  "invitation.not_found": "The invitation is unknown, expired or already accepted",
  "user.not_found": "No user with id 9b2f4a1e-0c3d-4e5f-8a6b-7c8d9e0f1a2b is visible to you",
  "user.already_exists": "An account for dana@example.com already exists",
  "operator.last_operator": "The last active operator cannot be demoted",

  "company.not_found": "No company with id 7c9e6679-7425-40de-944b-e07fc1f90ae7",
  "company.invalid_slug": "slug: 1 to 64 characters from [a-z0-9-], not starting or ending with a hyphen",
  "company.slug_taken": 'slug: a sibling company already uses "acme-europe"',
  "company.invalid_parent": "newParentId: a company cannot move under itself or its descendant",
  "company.not_active": "parentId: an archived company cannot receive children",
  "user.not_pending": "Only a pending invitation can be sent again",
  "api_token.name_required": "name: a token needs a name",
  "api_token.invalid_expiry": "expiresInDays: a whole number from 1 to 3650",
  "api_token.not_found": "No token with id 2d1f0e9c-8b7a-4c6d-9e5f-4a3b2c1d0e9f",
  "audit.invalid_format": "format: one of csv, json",
  "audit.invalid_range": "from: must not be later than until",
  "analytics.range_too_large": "The window is longer than 366 days",
  "analytics.invalid_range": "from (2026-03-01T00:00:00.000Z) is later than to (2026-02-01T00:00:00.000Z)",

  "template.not_found": "No template with id 0f8fad5b-d9cb-469f-a165-70867728950e",
  "template.product_code_taken": "A template with product code EDITOR already exists",
  "template.archived": "Template EDITOR is archived; it issues no new licenses",
  "template.invalid_config_schema":
    "configSchema is not a valid JSON Schema: at /type: must be equal to one of the allowed values",
  "template.invalid_defaults": "defaults must be a JSON object",
  "template.version_not_found": "Template EDITOR has no version 7",
  "signing_key.not_found": "Template 0f8fad5b-d9cb-469f-a165-70867728950e has no active signing key",
  "signing_key.not_inactive": "The active key cannot be retired; rotate first",

  "license.not_found": "No license with this key",
  "license.company_not_active":
    "Company 7c9e6679-7425-40de-944b-e07fc1f90ae7 is archived; licenses cannot be issued to it",
  "license.invalid_status": 'Unknown status "Paused"; use one of Active, Suspended, Revoked, Expired',
  "license.invalid_cursor": "after is not a cursor of this list; pass a nextCursor as it was returned",
  "license.cursor_with_page":
    "Use page or after, not both: after continues from a cursor, page counts from the start",
  "license.bulk_too_large": "At most 200 items per request; got 250",
  "license.bulk_empty": "items is empty: nothing to issue",
  "license.invalid_config": "config.features must be an array of strings",
  "license.invalid_expiry": "expiresAt must lie in the future",
  "license.invalid_binding": "hwBinding fixed needs the hwFingerprint of the machine",
  "license.same_company": "The license already belongs to this company",
  "license.already_revoked": "The license is already revoked",
  "license.invalid_transition": "Only an Active license can be suspended; this one is Revoked",
  "idempotency.key_reused": "This Idempotency-Key was already used with a different request",
  "idempotency.invalid_key": "Idempotency-Key must be 1 to 255 visible ASCII characters",

  "license.not_active": "The license is Suspended",
  "license.revoked": "The license was revoked",
  "activation.not_found": "The activation was deactivated; activate again",
  "activation.fingerprint_mismatch": "The license is bound to another machine",
  "activation.fingerprint_required": "hwFingerprint: required by a firstActivation license",
  "activation.not_bound": "The license's machine was released; it awaits a rebind",
  "activation.seat_limit_reached": "All 3 seats of the license are in use",
  "activation.device_budget_exhausted":
    "3 new devices were activated on this license in the last 30 days; the next may activate from 2026-09-21T14:13:20.000Z",
  "activation.machine_limit_reached":
    "All 200 machines the license allows are registered; deactivate one first",
  "lease.not_found": "The license has no such lease",
  "lease.not_floating": "The license is node-locked: its seats are its activations, not leases",
  "lease.seats_exhausted":
    "All 10 seats of the license are leased; the first may free at 2026-09-21T14:28:20.000Z",
  "lease.released": "The lease was released; acquire a new one",
  "lease.borrow_not_allowed": "The license allows no borrowing (maxBorrowDays is 0)",
  "lease.borrow_too_long": "A lease may be borrowed at most 7 days ahead, until 2026-09-28T14:13:20.000Z",
  "offline.request_invalid":
    "The request's HMAC does not verify with this license's key: it was changed, or made with another key",
  "offline.receipt_invalid":
    "The receipt names no certificate this license's activation holds (another activation, or a certificate since replaced)",
  "hmac.missing": "X-Service-Timestamp and X-Service-Signature headers are required",
  "hmac.malformed": "X-Service-Timestamp must be unix seconds",
  "hmac.stale": "X-Service-Timestamp is 412 s away from the server's clock (at most 300 s allowed)",
  "hmac.mismatch": "X-Service-Signature does not match this request",

  "webhook.not_found": "No webhook endpoint with id 5a3c2b1d-9e8f-4a7b-8c6d-5e4f3a2b1c0d",
  "webhook.invalid_url": "url: an absolute http or https URI, e.g. https://example.com/hooks",
  "webhook.url_not_allowed":
    "url: hooks.internal resolves to 10.0.0.5, a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow)",
  "webhook.secret_too_short": "secret: at least 16 characters",
  "webhook.invalid_events": 'events: unknown event type "license.created"; see GET /webhooks/event-types',
  "webhook_delivery.not_found": "No webhook delivery with id 6b4d3c2e-0f9a-4b8c-9d7e-6f5a4b3c2d1e",
  "hmac.v2_required":
    "This server accepts only v2 request signatures (X-Service-Signature: v2=<hex>); update the client",
};

const machines = [
  {
    activationId: "b5e0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
    machineName: "DESIGN-LAPTOP-07",
    activatedAt: "2026-08-02T09:30:00.000Z",
    lastHeartbeatAt: "2026-09-21T14:13:20.000Z",
  },
];

/** The details the codes that carry some are sent with, as the reference shows them. */
export const errorExampleDetails: ErrorDetailsByCode = {
  "license.revoked": { revocation: revocationVector.revocation },
  "activation.machine_limit_reached": { machines },
  "lease.seats_exhausted": {
    holders: [
      {
        machineName: "DESIGN-LAPTOP-07",
        acquiredAt: "2026-09-21T09:30:00.000Z",
        expiresAt: "2026-09-21T14:28:20.000Z",
      },
    ],
    retryAt: "2026-09-21T14:28:20.000Z",
  },
  "activation.device_budget_exhausted": { retryAt: "2026-09-21T14:13:20.000Z" },
  "activation.seat_limit_reached": { machines },
};
