import { HOUR, MINUTE } from "../clock.ts";

/** Spec §6 "Retry policy": the wait after failed attempt 1, 2, 3, 4; attempt 5 failing ends in Failed. */
export const RETRY_DELAYS_MS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR] as const;
export const MAX_ATTEMPTS = 5;

/** When to try again after failed attempt number `attempt` (1-based), or null when retries stop. */
export function nextAttemptAfterFailure(attempt: number, now: Date): Date | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + RETRY_DELAYS_MS[attempt - 1]!);
}

export const isSuccess = (statusCode: number) => statusCode >= 200 && statusCode < 300;
