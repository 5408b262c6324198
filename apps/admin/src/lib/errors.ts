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
