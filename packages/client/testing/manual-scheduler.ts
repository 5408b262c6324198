import type { Scheduler, TimerKind } from "../src/client/scheduler.ts";

/** A scheduler whose timers fire only when the test says so. */
export function manualScheduler() {
  const timers = new Map<number, { callback: () => void; delayMs: number; kind: TimerKind }>();
  let next = 0;
  const scheduler: Scheduler & {
    /** The delays of the timers waiting (of one kind, when given), shortest first. */
    pending(kind?: TimerKind): number[];
    /** Fires the waiting timer with the shortest delay that `which` accepts; returns that delay. */
    fire(which?: (delayMs: number, kind: TimerKind) => boolean): number;
  } = {
    setTimeout(callback, delayMs, kind = "network") {
      timers.set(++next, { callback, delayMs, kind });
      return next;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    pending: (kind) =>
      [...timers.values()]
        .filter((t) => kind === undefined || t.kind === kind)
        .map((t) => t.delayMs)
        .sort((a, b) => a - b),
    fire(which = () => true) {
      const found = [...timers.entries()]
        .filter(([, t]) => which(t.delayMs, t.kind))
        .sort((a, b) => a[1].delayMs - b[1].delayMs)[0];
      if (!found) throw new Error("No such timer is waiting");
      const [id, timer] = found;
      timers.delete(id);
      timer.callback();
      return timer.delayMs;
    },
  };
  return scheduler;
}

/** Which timer `fire` takes: the status watch. */
export const watchTimer = (_delayMs: number, kind: TimerKind) => kind === "watch";
