import { setTimeout as sleep } from "node:timers/promises";

/**
 * Makes "unknown license key" answers take as long as real work does, so response times do not tell
 * which keys exist. It tracks a moving average of successful calls (wall-clock time: this is about
 * what an observer measures, not domain time) and delays failures to match, with a little jitter.
 */
export class LatencyMirror {
  private averageMs: number;

  constructor(initialMs: number) {
    this.averageMs = initialMs;
  }

  recordSuccess(startedAt: number) {
    const elapsed = performance.now() - startedAt;
    // Ignore outliers (a cold cache, a GC pause) so one slow call does not slow every failure.
    if (elapsed < this.averageMs * 5) this.averageMs = this.averageMs * 0.9 + elapsed * 0.1;
  }

  /** Waits until a failure that began at `startedAt` has taken as long as a typical success. */
  async padFailure(startedAt: number) {
    const target = this.averageMs * (0.9 + Math.random() * 0.2);
    const remaining = target - (performance.now() - startedAt);
    if (remaining > 1) await sleep(remaining);
  }
}
