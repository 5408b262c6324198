import type { Scheduler, TimerKind } from "@licensing/client";

interface Timer {
  id: number;
  due: number;
  kind: TimerKind;
  callback: () => Promise<unknown> | void;
  /** The computer whose program set it (`forOwner`); null for a timer of nobody's in particular. */
  owner: object | null;
}

/**
 * The client's timers on virtual time. Timers measure elapsed time, as real timers do: `set-clock` does not
 * fire them, `advance` does. `network` timers (heartbeats, retries) fire at their due time and are waited
 * for; `watch` timers (the client re-reading its status once a minute) fire only where the clock stops, so
 * a month passes in milliseconds without a state-file write per virtual minute.
 *
 * Each computer's program sets its timers through its own view (`forOwner`), so that a computer can sleep
 * (its timers stop, and when it wakes each is due as late as it slept: timers measure the time the system
 * runs, as the monotonic clock does) and a program can crash (its timers are forgotten).
 */
export class VirtualScheduler implements Scheduler {
  private readonly timers = new Map<number, Timer>();
  private nextId = 0;
  /** The sleeping computers, with when (elapsed time) each fell asleep. */
  private readonly sleeping = new Map<object, number>();

  constructor(private readonly elapsed: () => number) {}

  setTimeout(
    callback: () => Promise<unknown> | void,
    delayMs: number,
    kind: TimerKind = "network",
    owner: object | null = null,
  ) {
    const id = ++this.nextId;
    // Whole milliseconds, as the clocks they are compared with (a jittered delay has fractions).
    const due = this.elapsed() + Math.max(0, Math.ceil(delayMs));
    this.timers.set(id, { id, due, kind, callback, owner });
    return id;
  }

  /** The scheduler a computer's program uses: its timers are that computer's. */
  forOwner(owner: object): Scheduler {
    return {
      setTimeout: (callback, delayMs, kind) => this.setTimeout(callback, delayMs, kind, owner),
      clearTimeout: (handle) => this.clearTimeout(handle),
    };
  }

  /** The computer sleeps: its timers stop. */
  sleep(owner: object) {
    if (!this.sleeping.has(owner)) this.sleeping.set(owner, this.elapsed());
  }

  /**
   * The computer wakes: each of its timers is due as late as it slept (a timer measures the time the system
   * ran). Returns how long it slept.
   */
  wake(owner: object): number {
    const since = this.sleeping.get(owner);
    if (since === undefined) return 0;
    this.sleeping.delete(owner);
    const slept = this.elapsed() - since;
    for (const timer of this.timers.values()) if (timer.owner === owner) timer.due += slept;
    return slept;
  }

  isAsleep(owner: object): boolean {
    return this.sleeping.has(owner);
  }

  /** Forgets a computer's timers: its program died. */
  drop(owner: object) {
    for (const timer of [...this.timers.values()]) if (timer.owner === owner) this.timers.delete(timer.id);
  }

  private awake = (timer: Timer) => timer.owner === null || !this.sleeping.has(timer.owner);

  clearTimeout(handle: unknown) {
    this.timers.delete(handle as number);
  }

  /** When the earliest network timer is due, if any is. */
  nextNetworkDue(): number | null {
    let due: number | null = null;
    for (const timer of this.timers.values())
      if (timer.kind === "network" && this.awake(timer) && (due === null || timer.due < due)) due = timer.due;
    return due;
  }

  /** Fires, in due order, the network timers due by now, then each watch timer due by now once. */
  async fireDue() {
    for (;;) {
      const now = this.elapsed();
      const due = [...this.timers.values()]
        .filter((t) => t.kind === "network" && t.due <= now && this.awake(t))
        .sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!due) break;
      this.timers.delete(due.id);
      await due.callback();
    }
    const now = this.elapsed();
    const watches = [...this.timers.values()].filter(
      (t) => t.kind === "watch" && t.due <= now && this.awake(t),
    );
    for (const timer of watches) {
      this.timers.delete(timer.id);
      await timer.callback();
    }
  }

  /** Forgets every timer (the run is over). */
  clear() {
    this.timers.clear();
    this.sleeping.clear();
  }
}
