import type { Scheduler, TimerKind } from "@licensing/client";

interface Timer {
  id: number;
  due: number;
  kind: TimerKind;
  callback: () => Promise<unknown> | void;
}

/**
 * The client's timers on virtual time. Timers measure elapsed time, as real timers do: `set-clock` does not
 * fire them, `advance` does. `network` timers (heartbeats, retries) fire at their due time and are waited
 * for; `watch` timers (the client re-reading its status once a minute) fire only where the clock stops, so
 * a month passes in milliseconds without a state-file write per virtual minute.
 */
export class VirtualScheduler implements Scheduler {
  private readonly timers = new Map<number, Timer>();
  private nextId = 0;

  constructor(private readonly elapsed: () => number) {}

  setTimeout(callback: () => Promise<unknown> | void, delayMs: number, kind: TimerKind = "network") {
    const id = ++this.nextId;
    // Whole milliseconds, as the clocks they are compared with (a jittered delay has fractions).
    this.timers.set(id, { id, due: this.elapsed() + Math.max(0, Math.ceil(delayMs)), kind, callback });
    return id;
  }

  clearTimeout(handle: unknown) {
    this.timers.delete(handle as number);
  }

  /** When the earliest network timer is due, if any is. */
  nextNetworkDue(): number | null {
    let due: number | null = null;
    for (const timer of this.timers.values())
      if (timer.kind === "network" && (due === null || timer.due < due)) due = timer.due;
    return due;
  }

  /** Fires, in due order, the network timers due by now, then each watch timer due by now once. */
  async fireDue() {
    for (;;) {
      const now = this.elapsed();
      const due = [...this.timers.values()]
        .filter((t) => t.kind === "network" && t.due <= now)
        .sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!due) break;
      this.timers.delete(due.id);
      await due.callback();
    }
    const now = this.elapsed();
    const watches = [...this.timers.values()].filter((t) => t.kind === "watch" && t.due <= now);
    for (const timer of watches) {
      this.timers.delete(timer.id);
      await timer.callback();
    }
  }

  /** Forgets every timer (the run is over). */
  clear() {
    this.timers.clear();
  }
}
