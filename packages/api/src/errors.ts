import { errorCatalogue, type ErrorCode, type ErrorKind, type ErrorResponse } from "@licensing/contracts";
import { AppError, isDatabaseUnavailable } from "@licensing/core";
import { TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { ZodError } from "zod";

/** The one table from an error kind to its HTTP status and tRPC code. */
export const errorKindMapping: Record<ErrorKind, { status: number; trpc: TRPC_ERROR_CODE_KEY }> = {
  Validation: { status: 400, trpc: "BAD_REQUEST" },
  Unauthorized: { status: 401, trpc: "UNAUTHORIZED" },
  Forbidden: { status: 403, trpc: "FORBIDDEN" },
  NotFound: { status: 404, trpc: "NOT_FOUND" },
  Conflict: { status: 409, trpc: "CONFLICT" },
  PayloadTooLarge: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  // Raised by the HTTP layer before any procedure runs (see http/client-error.ts), never by tRPC itself.
  HeaderTooLarge: { status: 431, trpc: "BAD_REQUEST" },
  RequestTimeout: { status: 408, trpc: "TIMEOUT" },
  TooManyRequests: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  // tRPC has no 410; only the client API (REST) answers it, so the closest code is never sent in practice.
  Gone: { status: 410, trpc: "NOT_FOUND" },
  Failure: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
  Unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
};

/** Sent as `Retry-After` with every 503: about how long a PostgreSQL restart takes. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The `Retry-After` of an error (REST, or a tRPC error caused by ours), in seconds; 0 for none: a refusal's
 * own end (`auth.too_many_attempts`), or RETRY_AFTER_SECONDS for a lost database.
 */
export function retryAfterSeconds(error: unknown): number {
  const known = asAppError(error instanceof TRPCError ? error.cause : error);
  if (!known) return 0;
  return known.retryAfterSeconds ?? (known.kind === "Unavailable" ? RETRY_AFTER_SECONDS : 0);
}

/** Names each failing field, e.g. `body.email: Invalid email address`. */
export function describeZodError(error: ZodError, location?: string) {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = [location, ...issue.path.map(String)].filter(Boolean).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

interface HttpError {
  status: number;
  type?: string;
  errno?: number;
}
/** An http-errors error below 500, as body-parser and the router raise them. */
const isClientHttpError = (e: unknown): e is HttpError =>
  typeof e === "object" &&
  e !== null &&
  typeof (e as HttpError).status === "number" &&
  (e as HttpError).status >= 400 &&
  (e as HttpError).status < 500;

/** What reading a request body can meet (body-parser's error types), as the service answers it. */
const BODY_ERRORS = {
  "entity.too.large": ["request.too_large", "The request body exceeds 1 MiB (after decompression)"],
  "entity.parse.failed": ["request.malformed_json", "The request body is not valid JSON"],
  "encoding.unsupported": [
    "request.invalid_encoding",
    "Unsupported Content-Encoding: send identity, gzip, deflate or br",
  ],
  "charset.unsupported": ["request.invalid", "The request body must be UTF-8 JSON"],
  "request.aborted": ["request.invalid", "The request body could not be read"],
} as const satisfies Record<string, [ErrorCode, string]>;

/** The error a body reader raises for `type`, as body-parser's would be answered. */
export const bodyError = (type: keyof typeof BODY_ERRORS): AppError => {
  const [code, message] = BODY_ERRORS[type];
  return new AppError(code, message);
};

/** The codes the HTTP layer (body-parser, the router) can raise before a route runs. */
function describeHttpError(error: unknown): [ErrorCode, string] | null {
  // The router decodes path parameters itself; `%ZZ` or a cut UTF-8 sequence is the caller's mistake.
  if (error instanceof URIError)
    return ["request.invalid", "A path parameter is not valid percent-encoded UTF-8"];
  if (!isClientHttpError(error)) return null;
  if (error.type !== undefined && error.type in BODY_ERRORS)
    return [...BODY_ERRORS[error.type as keyof typeof BODY_ERRORS]];
  // A zlib or brotli failure: the bytes do not match the Content-Encoding the request declared.
  if (typeof error.errno === "number")
    return ["request.invalid_encoding", "The request body does not match its Content-Encoding"];
  return [...BODY_ERRORS["request.aborted"]];
}

/** The domain error an error stands for, if any: ours, or a lost database (503, retry). */
export function asAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error))
    return new AppError("database.unavailable", "The database is unavailable; retry shortly");
  return undefined;
}

/**
 * Turns anything thrown into the spec's error body, with the details its code carries (`retryAt`,
 * `machines`: `ErrorDetailsByCode`). `unexpected` is true when the error is not one of
 * ours: the caller logs it whole and the body stays generic.
 */
export function toErrorResponse(error: unknown): { body: ErrorResponse; unexpected: boolean } {
  const body = (code: ErrorCode, message: string, details?: object) => ({
    body: { code, message, status: errorKindMapping[errorCatalogue[code]].status, ...details },
    unexpected: false,
  });
  const known = asAppError(error);
  if (known) return body(known.code, known.message, known.details);
  if (error instanceof ZodError) return body("request.invalid", describeZodError(error));
  const http = describeHttpError(error);
  if (http) return body(...http);
  return {
    body: { code: "internal", message: "An unexpected error occurred; it has been logged", status: 500 },
    unexpected: true,
  };
}
