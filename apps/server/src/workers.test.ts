import { createManualClock, type Deps } from "@licensing/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { startWorkers, type JobDefinition } from "./workers.ts";

// The scheduler only hands Deps to the handlers and logs through it; these jobs touch nothing else.
const deps = { clock: createManualClock(), logger: pino({ level: "silent" }) } as unknown as Deps;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that records when each run starts and ends, and takes `runMs` per run. */
function recordingJob<Id extends string>(id: Id, intervalMs: number, runMs: number) {
  const runs: Array<{ start: number; end?: number }> = [];
  let active = 0;
  let maxActive = 0;
  const job: JobDefinition<Id> = {
    id,
    intervalMs,
    async handler() {
      const run: { start: number; end?: number } = { start: performance.now() };
      runs.push(run);
      maxActive = Math.max(maxActive, ++active);
      await sleep(runMs);
      active--;
      run.end = performance.now();
    },
  };
  return { job, runs, maxActive: () => maxActive, active: () => active };
}

describe("startWorkers", () => {
  it("never runs a slow job twice at once, however often it is due or woken", async () => {
    const slow = recordingJob("slow", 5, 60);
    const workers = startWorkers(deps, [slow.job]);
    for (let i = 0; i < 10; i++) {
      workers.wake("slow");
      await sleep(15);
    }
    await workers.stop();
    expect(slow.maxActive()).toBe(1);
    expect(slow.runs.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < slow.runs.length; i++) {
      expect(slow.runs[i]!.start).toBeGreaterThanOrEqual(slow.runs[i - 1]!.end!);
    }
  });

  it("stop() waits for the runs in flight and starts none after", async () => {
    const slow = recordingJob("slow", 5, 100);
    const other = recordingJob("other", 5, 30);
    const workers = startWorkers(deps, [slow.job, other.job]);
    await sleep(20);
    expect(slow.active()).toBe(1);
    workers.wake("slow");
    await workers.stop();
    expect(slow.active()).toBe(0);
    expect(other.active()).toBe(0);
    expect(slow.runs.every((run) => run.end !== undefined)).toBe(true);
    const count = slow.runs.length + other.runs.length;
    await sleep(50);
    expect(slow.runs.length + other.runs.length).toBe(count);
  });

  it("runs each job on its own interval", async () => {
    const fast = recordingJob("fast", 10, 1);
    const rare = recordingJob("rare", 10_000, 1);
    const workers = startWorkers(deps, [fast.job, rare.job]);
    await sleep(300);
    await workers.stop();
    expect(rare.runs).toHaveLength(1);
    expect(fast.runs.length).toBeGreaterThanOrEqual(4);
  });

  it("wake(id) runs a job now, and once more after a run in flight", async () => {
    const job = recordingJob("dispatch", 60_000, 40);
    const workers = startWorkers(deps, [job.job]);
    await sleep(10);
    expect(job.runs).toHaveLength(1);
    // Two wakes during the run are one follow-up run, right after it.
    workers.wake("dispatch");
    workers.wake("dispatch");
    await sleep(100);
    expect(job.runs).toHaveLength(2);
    workers.wake("dispatch");
    await sleep(10);
    expect(job.runs).toHaveLength(3);
    await workers.stop();
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
    await sleep(80);
    await workers.stop();
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it("refuses two jobs with one id", () => {
    const job = recordingJob("same", 10, 1).job;
    expect(() => startWorkers(deps, [job, job])).toThrow(/Two jobs share the id same/);
  });
});
