/**
 * What a timer is for: `network` (an activation, a heartbeat or their retry: requests and cache writes) or
 * `watch` (re-reads the status to notice changes as time passes; no request).
 */
export type TimerKind = "network" | "watch";

/**
 * How the client schedules its own work: the heartbeat, retries after failures, and the watch that notices
 * status changes as time passes. The default uses real timers that never keep a Node process alive; a
 * simulator with a virtual clock passes one that fires as its clock moves.
 */
export interface Scheduler {
  /**
   * Calls `callback` after `delayMs`. The callback's promise settles when the work it started (requests,
   * cache writes) is done, so a virtual-time scheduler can wait for it before moving its clock on; real
   * timers ignore it. `kind` lets such a scheduler fire `watch` timers only where its clock stops.
   */
  setTimeout(callback: () => Promise<unknown> | void, delayMs: number, kind?: TimerKind): unknown;
  clearTimeout(handle: unknown): void;
}

/** setTimeout's longest delay; a longer wait is cut to it, and the waiter looks again when it fires. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export const realScheduler: Scheduler = {
  setTimeout(callback, delayMs) {
    const handle = setTimeout(() => void callback(), Math.min(Math.max(0, delayMs), MAX_TIMER_DELAY_MS));
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` real milliseconds without holding a Node process open. */
export const sleep = (ms: number) =>
  new Promise<void>((resolve) => void realScheduler.setTimeout(resolve, ms));
