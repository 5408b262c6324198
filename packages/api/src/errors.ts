import type { ErrorKind, ErrorResponse } from "@licensing/contracts";
import { AppError, isDatabaseUnavailable } from "@licensing/core";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { ZodError } from "zod";

/** The one table from an error kind to its HTTP status and tRPC code. */
export const errorKindMapping: Record<ErrorKind, { status: number; trpc: TRPC_ERROR_CODE_KEY }> = {
  Validation: { status: 400, trpc: "BAD_REQUEST" },
  Unauthorized: { status: 401, trpc: "UNAUTHORIZED" },
  Forbidden: { status: 403, trpc: "FORBIDDEN" },
  NotFound: { status: 404, trpc: "NOT_FOUND" },
  Conflict: { status: 409, trpc: "CONFLICT" },
  PayloadTooLarge: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  TooManyRequests: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  Failure: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
  Unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
};

/** Sent as `Retry-After` with every 503: about how long a PostgreSQL restart takes. */
export const RETRY_AFTER_SECONDS = 5;

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

interface BodyParserError {
  type: string;
  status?: number;
}
const isBodyParserError = (e: unknown): e is BodyParserError =>
  typeof e === "object" && e !== null && typeof (e as BodyParserError).type === "string" && "status" in e;

/** The domain error an error stands for, if any: ours, or a lost database (503, retry). */
export function asAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error))
    return new AppError("database.unavailable", "The database is unavailable; retry shortly");
  return undefined;
}

/**
 * Turns anything thrown into the spec's error body. `unexpected` is true when the error is not one of
 * ours: the caller logs it whole and the body stays generic.
 */
export function toErrorResponse(error: unknown): { body: ErrorResponse; unexpected: boolean } {
  const body = (code: string, message: string, kind: ErrorKind) => ({
    body: { code, message, status: errorKindMapping[kind].status },
    unexpected: false,
  });
  const known = asAppError(error);
  if (known) return body(known.code, known.message, known.kind);
  if (error instanceof ZodError) return body("request.invalid", describeZodError(error), "Validation");
  if (isBodyParserError(error)) {
    if (error.type === "entity.too.large")
      return body("request.too_large", "The request body exceeds 1 MiB", "PayloadTooLarge");
    if (error.type === "entity.parse.failed")
      return body("request.malformed_json", "The request body is not valid JSON", "Validation");
    if (error.status && error.status < 500)
      return body("request.invalid", "The request body could not be read", "Validation");
  }
  return {
    body: { code: "internal", message: "An unexpected error occurred; it has been logged", status: 500 },
    unexpected: true,
  };
}
