import { sweepers, type Deps } from "@licensing/core";

export interface Workers {
  /** Runs every job once now, after the run in progress (a virtual clock moved: the QA simulator). */
  runNow(): Promise<void>;
  /** Stops scheduling and waits for a run in progress to finish. */
  stop(): Promise<void>;
}

interface Job {
  name: string;
  run(deps: Deps): Promise<number>;
}

const jobs: Job[] = [
  { name: "license expiry", run: (deps) => sweepers.sweepExpiredLicenses(deps) },
  { name: "missed heartbeats", run: (deps) => sweepers.detectMissedHeartbeats(deps) },
];

/**
 * Runs the sweepers in this process every `intervalMs`. Each claims its rows with SKIP LOCKED, so every
 * instance of the server can run them; a run never overlaps the previous one of the same process.
 */
export function startWorkers(deps: Deps, intervalMs: number): Workers {
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  const runJobs = async () => {
    for (const job of jobs) {
      if (stopped) return;
      try {
        const count = await job.run(deps);
        if (count > 0) deps.logger.info({ job: job.name, count }, "sweeper run");
      } catch (err) {
        deps.logger.error({ err, job: job.name }, "sweeper failed; retrying next interval");
      }
    }
  };
  // Runs queue behind each other, so two never overlap.
  const tick = () => (current = current.then(runJobs));
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return {
    runNow: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
