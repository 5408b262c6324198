import type { RequestInfo } from "@licensing/core";

/**
 * What an operation may know of the request, whatever carried it (REST, tRPC over HTTP, or a caller in
 * process): a handler never sees a framework's request or response.
 */
export interface CallRequest {
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
  /** The caller's address and user agent, as the audit log and sessions record them. */
  info: RequestInfo;
  /** The request's id (the caller's `X-Request-Id` when well-formed), when the transport gave one. */
  requestId: string | undefined;
  /** The `Idempotency-Key` header; read only by operations that declare `idempotent`. */
  idempotencyKey: string | undefined;
  /** The session cookie's value. */
  sessionId: string | undefined;
  /** Sets the session cookie on the response, or clears it (null). */
  setSessionCookie(sessionId: string | null): void;
  /** The request as sent, which a client signature covers: method, path without query, body bytes. */
  signed: { method: string; path: string; body: Buffer };
  /**
   * Answers this call with another success status than the declared one: a create that finds what it
   * would create answers 200 instead of 201. Only REST has a status to set; elsewhere it does nothing.
   */
  setStatus(status: 200 | 201): void;
}
