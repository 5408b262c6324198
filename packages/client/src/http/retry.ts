/** When to try again after a failed request: exponential backoff with jitter, and the server's Retry-After. */

/** Retry-After (delta seconds or an HTTP date) in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface BackoffPolicy {
  /** The first delay (ms). */
  baseMs: number;
  /** No delay is longer (ms). */
  maxMs: number;
}

/**
 * The delay before retry `attempt` (1 for the first retry): base × 2^(attempt−1) capped at max, then
 * "equal jitter" (half fixed, half random) so a fleet that lost the server together does not return
 * together; never shorter than the server's Retry-After.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const delay = ceiling / 2 + random() * (ceiling / 2);
  return Math.max(delay, retryAfterMs ?? 0);
}

/** The heartbeat interval with ±10 % jitter, so machines started together spread out. */
export const jittered = (intervalMs: number, random: () => number = Math.random) =>
  intervalMs * (0.9 + 0.2 * random());
