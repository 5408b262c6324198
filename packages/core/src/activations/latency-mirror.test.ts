import { describe, expect, it } from "vitest";
import { LatencyMirror, type Stopwatch } from "./latency-mirror.ts";

/** Time that moves only when the test (or a sleep, at once) moves it: no wall clock in the figures. */
function manualStopwatch() {
  let at = 0;
  const slept: number[] = [];
  const stopwatch: Stopwatch & { advance(ms: number): void; slept: number[] } = {
    now: () => at,
    async sleep(ms) {
      slept.push(ms);
      at += ms;
    },
    advance: (ms) => void (at += ms),
    slept,
  };
  return stopwatch;
}

/** A mirror over a manual stopwatch, and calls that take `workMs` on it. */
function mirrorOf(initialMs: number) {
  const stopwatch = manualStopwatch();
  const mirror = new LatencyMirror(initialMs, stopwatch);
  return {
    stopwatch,
    success(workMs: number) {
      const startedAt = mirror.now();
      stopwatch.advance(workMs);
      mirror.recordSuccess(startedAt);
    },
    /** A failure's whole time: its work, then the padding. */
    async failure(workMs: number) {
      const startedAt = mirror.now();
      stopwatch.advance(workMs);
      await mirror.padFailure(startedAt);
      return stopwatch.now() - startedAt;
    },
  };
}

// The equal-work property of unknown license keys, on a manual stopwatch: the client API test shows that
// such answers go through `padFailure`; this shows what it does, with figures no machine's speed changes.
describe("LatencyMirror", () => {
  it("pads a failure to the moving average of successes, within ±10%", async () => {
    const { success, failure } = mirrorOf(30);
    for (let i = 0; i < 60; i++) success(40);
    // 30 ms at first, moved a tenth of the way to 40 ms by each success.
    const average = 40 - 10 * 0.9 ** 60;
    for (let i = 0; i < 20; i++) {
      const total = await failure(3);
      expect(total).toBeGreaterThanOrEqual(0.9 * average);
      expect(total).toBeLessThanOrEqual(1.1 * average);
    }
  });

  it("counts a success far slower than the average as twice the average: a tenth more at most", async () => {
    const { success, failure } = mirrorOf(20);
    success(1000);
    const total = await failure(0);
    expect(total).toBeGreaterThanOrEqual(0.9 * 22);
    expect(total).toBeLessThanOrEqual(1.1 * 22);
  });

  it("follows a machine where every success is far slower than the initial guess", async () => {
    const { success, failure } = mirrorOf(5);
    for (let i = 0; i < 100; i++) success(30);
    const total = await failure(0);
    expect(total).toBeGreaterThanOrEqual(0.9 * 29);
    expect(total).toBeLessThanOrEqual(1.1 * 30);
  });

  it("does not delay a failure that already took as long as a success", async () => {
    const { stopwatch, failure } = mirrorOf(20);
    expect(await failure(30)).toBe(30);
    expect(stopwatch.slept).toEqual([]);
  });
});
