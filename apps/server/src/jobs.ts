import { analytics, purgeIdempotencyKeys, sweepers } from "@licensing/core";
import type { JobDefinition } from "./workers.ts";

export interface JobIntervals {
  /** The expiry and silence sweepers (default one minute). */
  sweepIntervalMs: number;
  /** Forgetting idempotency keys past their window (default one hour). */
  idempotencyPurgeIntervalMs: number;
  /** Heartbeat partitions and the daily usage rollup (default ten minutes; each has work once a day). */
  analyticsIntervalMs: number;
}

/** The jobs every server instance runs. */
export function serverJobs(intervals: JobIntervals): JobDefinition[] {
  return [
    {
      id: "license-expiry",
      intervalMs: intervals.sweepIntervalMs,
      handler: (deps) => sweepers.sweepExpiredLicenses(deps),
    },
    {
      id: "missed-heartbeats",
      intervalMs: intervals.sweepIntervalMs,
      handler: (deps) => sweepers.detectMissedHeartbeats(deps),
    },
    {
      id: "idempotency-purge",
      intervalMs: intervals.idempotencyPurgeIntervalMs,
      handler: (deps) => purgeIdempotencyKeys(deps),
    },
    {
      id: "heartbeat-partitions",
      intervalMs: intervals.analyticsIntervalMs,
      handler: async (deps) => {
        const { created, dropped } = await analytics.maintainHeartbeatPartitions(deps);
        return created.length + dropped.length;
      },
    },
    {
      id: "usage-rollup",
      intervalMs: intervals.analyticsIntervalMs,
      handler: (deps) => analytics.rollupUsage(deps),
    },
  ];
}
