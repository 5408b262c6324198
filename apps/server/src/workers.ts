import { isDatabaseUnavailable, type Deps } from "@licensing/core";

/**
 * A background job (as Documenso's job definitions): an id, how often it runs, and what it does. The
 * handler returns how many rows it handled (logged when non-zero), or nothing.
 */
export interface JobDefinition<Id extends string = string> {
  id: Id;
  intervalMs: number;
  handler(deps: Deps): Promise<number | void>;
}

export interface Workers<Id extends string = string> {
  /** Runs job `id` now; when it is running, once more as soon as that run ends. */
  wake(id: Id): void;
  /** Stops scheduling and waits for every run in flight to finish. */
  stop(): Promise<void>;
}

interface Scheduled {
  job: JobDefinition;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  /** A wake (or tick) arrived during a run: run again when it ends. */
  again: boolean;
}

/**
 * Runs each job in this process on its own interval, counted from the end of its previous run, and at
 * start. A job never runs twice at once in one process: a wake during a run asks for one more run after
 * it. Jobs claim their rows with SKIP LOCKED, so every instance of the server can run them.
 */
export function startWorkers<Id extends string>(deps: Deps, jobs: readonly JobDefinition<Id>[]): Workers<Id> {
  const scheduled = new Map<Id, Scheduled>();
  let stopped = false;

  const run = (entry: Scheduled) => {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.running) {
      entry.again = true;
      return;
    }
    entry.running = (async () => {
      const started = process.hrtime.bigint();
      const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const count = await entry.job.handler(deps);
        deps.metrics.jobRun(entry.job.id, "ok", seconds(), count || 0);
        if (count) deps.logger.info({ job: entry.job.id, count }, "job run");
      } catch (err) {
        deps.metrics.jobRun(entry.job.id, "error", seconds(), 0);
        // A restart or fail-over of the database is an outage to watch, not a fault of the job: a warning,
        // as a request that meets it logs one (found by the soak, issue 25 §4).
        if (isDatabaseUnavailable(err))
          deps.logger.warn({ err, job: entry.job.id }, "database unavailable; job retrying next interval");
        else deps.logger.error({ err, job: entry.job.id }, "job failed; retrying next interval");
      }
    })().finally(() => {
      entry.running = undefined;
      if (stopped) return;
      if (entry.again) {
        entry.again = false;
        run(entry);
      } else {
        entry.timer = setTimeout(() => run(entry), entry.job.intervalMs).unref();
      }
    });
  };

  for (const job of jobs) {
    if (scheduled.has(job.id)) throw new Error(`Two jobs share the id ${job.id}`);
    scheduled.set(job.id, { job, timer: undefined, running: undefined, again: false });
  }
  for (const entry of scheduled.values()) run(entry);

  return {
    wake(id) {
      const entry = scheduled.get(id);
      if (!entry) throw new Error(`No job ${id}`);
      if (!stopped) run(entry);
    },
    async stop() {
      stopped = true;
      for (const entry of scheduled.values()) clearTimeout(entry.timer);
      // A run's follow-up is not started once stopped, so one pass waits for everything.
      await Promise.all([...scheduled.values()].map((entry) => entry.running));
    },
  };
}
