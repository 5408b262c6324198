import type { ErrorResponse } from "@licensing/contracts";
import { TRPCClientError } from "@trpc/client";

/** An error answer of the REST API (`{code, message, status}`), for the few calls the app makes over REST. */
export class RestError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(body: ErrorResponse) {
    super(body.message);
    this.code = body.code;
    this.status = body.status;
  }
}

/** The spec's machine code of an error, from either transport. */
export function errorCode(error: unknown): string | null {
  if (error instanceof RestError) return error.code;
  if (error instanceof TRPCClientError) {
    const data = error.data as { appCode?: string | null } | undefined;
    return data?.appCode ?? null;
  }
  return null;
}

/** The API's own message, shown next to the field or action it concerns. */
export function errorMessage(error: unknown): string {
  if (error instanceof RestError || error instanceof TRPCClientError) return error.message;
  if (error instanceof Error) return `Could not reach the server (${error.message})`;
  return "Something went wrong";
}

export function isUnauthenticated(error: unknown): boolean {
  if (error instanceof RestError) return error.status === 401;
  return error instanceof TRPCClientError && (error.data as { httpStatus?: number })?.httpStatus === 401;
}
