/**
 * How the client schedules its own work: the heartbeat, retries after failures, and the watch that notices
 * status changes as time passes. The default uses real timers that never keep a Node process alive; a
 * simulator with a virtual clock passes one that fires as its clock moves.
 */
export interface Scheduler {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** setTimeout's longest delay; a longer wait is cut to it, and the waiter looks again when it fires. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export const realScheduler: Scheduler = {
  setTimeout(callback, delayMs) {
    const handle = setTimeout(callback, Math.min(Math.max(0, delayMs), MAX_TIMER_DELAY_MS));
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` real milliseconds without holding a Node process open. */
export const sleep = (ms: number) =>
  new Promise<void>((resolve) => void realScheduler.setTimeout(resolve, ms));
