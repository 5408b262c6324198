import { TRPCClientError } from "@trpc/client";

type ErrorData = { appCode?: string | null; httpStatus?: number } | undefined;

/** The spec's machine code of an error (`license.not_found`), carried beside tRPC's own code. */
export function errorCode(error: unknown): string | null {
  return error instanceof TRPCClientError ? ((error.data as ErrorData)?.appCode ?? null) : null;
}

/** The API's own message, shown next to the field or action it concerns. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError && error.data) return error.message;
  if (error instanceof Error) return `Could not reach the server (${error.message})`;
  return "Something went wrong";
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as ErrorData)?.httpStatus === 401;
}

/**
 * Whether a failed call may still have taken effect: no answer came (the network failed, perhaps after
 * the server did the work), or the server failed (5xx). An answer refusing the call (4xx) says it did not.
 */
export function mayHaveRun(error: unknown): boolean {
  if (!(error instanceof TRPCClientError) || !error.data) return true;
  return ((error.data as ErrorData)?.httpStatus ?? 500) >= 500;
}
