import { setTimeout as sleep } from "node:timers/promises";

/** Where a `LatencyMirror` reads elapsed time and waits: the wall clock, or (tests) a manual one. */
export interface Stopwatch {
  /** Milliseconds from an arbitrary origin. */
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const wallClock: Stopwatch = { now: () => performance.now(), sleep: (ms) => sleep(ms) };

/**
 * Makes "unknown license key" answers take as long as real work does, so response times do not tell
 * which keys exist. It tracks a moving average of successful calls (wall-clock time: this is about
 * what an observer measures, not domain time) and delays failures to match, with a little jitter.
 */
export class LatencyMirror {
  private averageMs: number;

  constructor(
    initialMs: number,
    private readonly stopwatch: Stopwatch = wallClock,
  ) {
    this.averageMs = initialMs;
  }

  /** Where calls read their start time (`startedAt`). */
  now(): number {
    return this.stopwatch.now();
  }

  recordSuccess(startedAt: number) {
    const elapsed = this.stopwatch.now() - startedAt;
    // A slow call (a cold cache, a GC pause) counts as at most twice the average: one outlier moves the
    // average by a tenth at most, yet a machine slower than the initial guess is still followed (ignoring
    // such calls instead would pin the average to the guess there, and unknown keys would answer faster).
    this.averageMs = this.averageMs * 0.9 + Math.min(elapsed, this.averageMs * 2) * 0.1;
  }

  /** Waits until a failure that began at `startedAt` has taken as long as a typical success. */
  async padFailure(startedAt: number) {
    const target = this.averageMs * (0.9 + Math.random() * 0.2);
    const remaining = target - (this.stopwatch.now() - startedAt);
    if (remaining > 1) await this.stopwatch.sleep(remaining);
  }
}
