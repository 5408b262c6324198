import { createManualClock, createMetrics, type Deps } from "@licensing/core";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startWorkers, type JobDefinition } from "./workers.ts";

// The scheduler only hands Deps to the handlers, logs and counts through it; these jobs touch nothing else.
const clock = createManualClock();
const deps = { clock, logger: pino({ level: "silent" }), metrics: createMetrics(clock) } as unknown as Deps;

// The scheduler's timers are faked and every run ends when the test says so: what these tests show is the
// order of runs and timers, never how fast this machine is.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the faked time on by `ms`, letting the promise callbacks of finished runs go first. */
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** A job whose runs last until the test ends them (`finish`), recording their order. */
function controlledJob<Id extends string>(id: Id, intervalMs: number) {
  const events: string[] = [];
  const pending: Array<() => void> = [];
  let runs = 0;
  let active = 0;
  let maxActive = 0;
  const job: JobDefinition<Id> = {
    id,
    intervalMs,
    handler: () =>
      new Promise<void>((resolve) => {
        const n = ++runs;
        events.push(`start ${n}`);
        maxActive = Math.max(maxActive, ++active);
        pending.push(() => {
          active--;
          events.push(`end ${n}`);
          resolve();
        });
      }),
  };
  return {
    job,
    events,
    runs: () => runs,
    active: () => active,
    maxActive: () => maxActive,
    /** Ends the run in flight, then lets what follows it (a timer, or a run asked for meanwhile) happen. */
    async finish() {
      const end = pending.shift();
      if (!end) throw new Error(`${id} has no run in flight`);
      end();
      await elapse(0);
    },
  };
}

/** A job whose runs end at once. */
function instantJob<Id extends string>(id: Id, intervalMs: number) {
  let runs = 0;
  const job: JobDefinition<Id> = { id, intervalMs, handler: async () => void runs++ };
  return { job, runs: () => runs };
}

describe("startWorkers", () => {
  it("never runs a slow job twice at once, however often it is due or woken", async () => {
    const slow = controlledJob("slow", 5);
    const workers = startWorkers(deps, [slow.job]);
    await elapse(0);
    expect(slow.active()).toBe(1);
    for (let i = 0; i < 10; i++) {
      workers.wake("slow");
      await elapse(15);
    }
    // Ten wakes and many intervals during one run: still that one run.
    expect(slow.runs()).toBe(1);
    await slow.finish();
    // They ask for one more run, which starts when the first ends, not before.
    expect(slow.events).toEqual(["start 1", "end 1", "start 2"]);
    await slow.finish();
    await elapse(5);
    expect(slow.events).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3"]);
    expect(slow.maxActive()).toBe(1);
    const stopped = workers.stop();
    await slow.finish();
    await stopped;
  });

  it("stop() waits for the runs in flight and starts none after", async () => {
    const slow = controlledJob("slow", 5);
    const other = controlledJob("other", 5);
    const workers = startWorkers(deps, [slow.job, other.job]);
    await elapse(0);
    await other.finish();
    expect([slow.active(), other.active()]).toEqual([1, 0]);
    workers.wake("slow");
    let stopped = false;
    const stopping = workers.stop().then(() => (stopped = true));
    await elapse(1000);
    expect(stopped).toBe(false);
    await slow.finish();
    await stopping;
    // The wake during the run and the other job's next interval start nothing once stopped.
    await elapse(60_000);
    expect([slow.runs(), other.runs()]).toEqual([1, 1]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("runs each job on its own interval, counted from the end of its previous run", async () => {
    const fast = instantJob("fast", 10);
    const rare = instantJob("rare", 10_000);
    const workers = startWorkers(deps, [fast.job, rare.job]);
    await elapse(0);
    expect([fast.runs(), rare.runs()]).toEqual([1, 1]);
    await elapse(100);
    expect([fast.runs(), rare.runs()]).toEqual([11, 1]);
    await elapse(9_900);
    expect([fast.runs(), rare.runs()]).toEqual([1001, 2]);
    await workers.stop();

    const slow = controlledJob("slow", 10);
    const again = startWorkers(deps, [slow.job]);
    await elapse(50);
    await slow.finish();
    await elapse(9);
    expect(slow.runs()).toBe(1);
    await elapse(1);
    expect(slow.runs()).toBe(2);
    const stopped = again.stop();
    await slow.finish();
    await stopped;
  });

  it("wake(id) runs a job now, and once more after a run in flight", async () => {
    const job = controlledJob("dispatch", 60_000);
    const workers = startWorkers(deps, [job.job]);
    await elapse(0);
    expect(job.runs()).toBe(1);
    // Two wakes during the run are one follow-up run, right after it.
    workers.wake("dispatch");
    workers.wake("dispatch");
    await job.finish();
    expect(job.runs()).toBe(2);
    await job.finish();
    expect(job.runs()).toBe(2);
    // Idle, with the interval a minute away: a wake runs it at once.
    workers.wake("dispatch");
    await elapse(0);
    expect(job.runs()).toBe(3);
    const stopped = workers.stop();
    await job.finish();
    await stopped;
    // @ts-expect-error: wake takes the ids of the jobs started, and no other.
    expect(() => workers.wake("unknown")).toThrow(/No job unknown/);
  });

  it("keeps a failing job on its schedule", async () => {
    let calls = 0;
    const workers = startWorkers(deps, [
      {
        id: "failing",
        intervalMs: 10,
        handler: async () => {
          calls++;
          throw new Error("boom");
        },
      },
    ]);
    await elapse(30);
    expect(calls).toBe(4);
    await workers.stop();
  });

  it("logs a lost database as a warning, any other failure as an error", async () => {
    const lines: { level: number; msg: string; job: string }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    // What node-postgres throws while PostgreSQL shuts down (SQLSTATE 57P01), wrapped as Drizzle wraps it.
    const shutdown = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    const workers = startWorkers({ ...deps, logger } as Deps, [
      {
        id: "restarted",
        intervalMs: 1000,
        handler: () => Promise.reject(new Error("Failed query: begin", { cause: shutdown })),
      },
      { id: "broken", intervalMs: 1000, handler: () => Promise.reject(new Error("boom")) },
    ]);
    await elapse(0);
    await workers.stop();
    expect(lines.map(({ level, msg, job }) => ({ level, msg, job }))).toEqual([
      { level: 40, msg: "database unavailable; job retrying next interval", job: "restarted" },
      { level: 50, msg: "job failed; retrying next interval", job: "broken" },
    ]);
  });

  it("refuses two jobs with one id", () => {
    const job = instantJob("same", 10).job;
    expect(() => startWorkers(deps, [job, job])).toThrow(/Two jobs share the id same/);
  });
});
