/**
 * Every error code the client can meet (`statusDetails.lastError.code`): what the client API answers, and
 * the library's own for answers that never came or were not the API's. `error-codes.test.ts` holds the
 * server's part to the service's catalogue and to the client operations' declared errors.
 */
export const SERVER_ERROR_CODES = [
  // The client API's own refusals.
  "license.not_found",
  "license.not_active",
  "license.revoked",
  "activation.not_found",
  "activation.fingerprint_mismatch",
  "activation.fingerprint_required",
  "activation.not_bound",
  "activation.seat_limit_reached",
  "activation.device_budget_exhausted",
  "activation.machine_limit_reached",
  // The leases of floating licenses (decision 0048).
  "lease.not_floating",
  "lease.not_found",
  "lease.seats_exhausted",
  "lease.released",
  "lease.borrow_not_allowed",
  "lease.borrow_too_long",
  // The revocation list.
  "template.not_found",
  // Signed requests (heartbeat, deactivate, machines, the leases).
  "hmac.missing",
  "hmac.malformed",
  "hmac.stale",
  "hmac.mismatch",
  "hmac.v2_required",
  // Any request.
  "request.invalid",
  "request.malformed_json",
  "request.invalid_encoding",
  "request.malformed_http",
  "request.too_large",
  "request.header_too_large",
  "request.timeout",
  "route.not_found",
  "rate_limit.exceeded",
  "internal",
  "database.unavailable",
] as const;

export const LIBRARY_ERROR_CODES = [
  /** No answer: the server could not be reached. */
  "network.error",
  /** No answer within `requestTimeoutMs`. */
  "network.timeout",
  /** A 2xx whose body is not the API's. */
  "response.invalid",
  /** The server's marker does not verify with the configured key, or is another machine's. */
  "marker.rejected",
  /** The server's lease token does not verify with the configured key, or is another machine's. */
  "lease.rejected",
] as const;

export const CLIENT_ERROR_CODES = [...SERVER_ERROR_CODES, ...LIBRARY_ERROR_CODES] as const;

/**
 * The code of a failed call: the server's, the library's, or `http.<status>` for an error answer without
 * the API's error body (a proxy's 502 page). A server newer than this library may send a code it does not
 * list yet; branch with a `default`.
 */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number] | `http.${number}`;
