import type { Answer } from "./http.ts";

/**
 * Refusals the load is built to meet: more machines than seats on every license. They are outcomes the
 * service must give, not errors (a lease renewed too late may find its seat taken: `lease.released`).
 */
export const EXPECTED_REFUSALS = new Set([
  "activation.seat_limit_reached",
  "lease.seats_exhausted",
  "lease.released",
]);

export interface ErrorEvent {
  /** Seconds since the load started. */
  at: number;
  op: string;
  /** `503 database.unavailable`, `0 ECONNREFUSED`, … */
  key: string;
}

/** Everything the load generator saw: latencies per operation, outcomes, errors with their time. */
export class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly ok = new Map<string, number>();
  readonly refused = new Map<string, number>();
  readonly errors: ErrorEvent[] = [];
  /** Requests answered (any status) per second since the start. */
  readonly perSecond: number[] = [];
  /** The start of the load (reset once the set-up is done). */
  constructor(public startedAt: number) {}

  elapsed(now = Date.now()) {
    return (now - this.startedAt) / 1000;
  }

  add(op: string, answer: Answer) {
    const at = this.elapsed();
    const second = Math.floor(at);
    this.perSecond[second] = (this.perSecond[second] ?? 0) + 1;
    if (answer.status > 0) push(this.latencies, op, answer.ms);
    if (answer.status >= 200 && answer.status < 300) bump(this.ok, op);
    else if (answer.code && EXPECTED_REFUSALS.has(answer.code))
      bump(this.refused, `${op} ${answer.status} ${answer.code}`);
    else this.errors.push({ at, op, key: `${answer.status} ${answer.code ?? ""}`.trim() });
  }

  total() {
    return this.perSecond.reduce((sum, n) => sum + (n ?? 0), 0);
  }
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
function push(map: Map<string, number[]>, key: string, value: number) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
