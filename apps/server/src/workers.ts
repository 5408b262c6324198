import { analytics, sweepers, type Deps } from "@licensing/core";

export interface Workers {
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
  {
    name: "heartbeat partitions",
    run: async (deps) => {
      const { created, dropped } = await analytics.maintainHeartbeatPartitions(deps);
      return created.length + dropped.length;
    },
  },
  { name: "usage rollup", run: (deps) => analytics.rollupUsage(deps) },
];

/**
 * Runs the sweepers in this process every `intervalMs`. Each claims its rows with SKIP LOCKED, so every
 * instance of the server can run them; a run never overlaps the previous one of the same process.
 */
export function startWorkers(deps: Deps, intervalMs: number): Workers {
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    current = (async () => {
      for (const job of jobs) {
        if (stopped) return;
        try {
          const count = await job.run(deps);
          if (count > 0) deps.logger.info({ job: job.name, count }, "sweeper run");
        } catch (err) {
          deps.logger.error({ err, job: job.name }, "sweeper failed; retrying next interval");
        }
      }
    })();
  };
  const timer = setInterval(() => {
    void current.then(tick);
  }, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
