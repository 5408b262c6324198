import { analytics, auth, purgeIdempotencyKeys, purgeMailOutbox, sweepers, webhooks } from "@licensing/core";
import type { JobDefinition } from "./workers.ts";

export interface JobIntervals {
  /** SWEEP_INTERVAL_SECONDS: the expiry and silence sweepers (default one minute). */
  sweepIntervalMs: number;
  /**
   * Forgetting idempotency keys and sign-in attempts past their windows, and outbox mails past their 30
   * days (default one hour).
   */
  purgeIntervalMs: number;
  /** WEBHOOK_POLL_INTERVAL_SECONDS: the fallback poll of the webhook dispatcher, which commits wake. */
  webhookPollIntervalMs: number;
  /**
   * ANALYTICS_INTERVAL_SECONDS: heartbeat partitions and the daily usage rollup (default ten minutes; each
   * has work once a day).
   */
  analyticsIntervalMs: number;
}

/** The job that sends due webhook deliveries; woken by NOTIFY webhook_deliveries (decision 0024). */
export const WEBHOOK_DELIVERY_JOB = "webhook-deliveries";

/** The jobs every server instance runs. */
export function serverJobs(intervals: JobIntervals) {
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
      intervalMs: intervals.purgeIntervalMs,
      handler: (deps) => purgeIdempotencyKeys(deps),
    },
    {
      id: "login-attempts-purge",
      intervalMs: intervals.purgeIntervalMs,
      handler: (deps) => auth.purgeLoginAttempts(deps),
    },
    {
      id: "mail-outbox-purge",
      intervalMs: intervals.purgeIntervalMs,
      handler: (deps) => purgeMailOutbox(deps),
    },
    {
      id: WEBHOOK_DELIVERY_JOB,
      intervalMs: intervals.webhookPollIntervalMs,
      handler: (deps) => webhooks.dispatchDueDeliveries(deps),
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
    {
      id: "lease-rollup",
      intervalMs: intervals.analyticsIntervalMs,
      handler: (deps) => analytics.rollupLeases(deps),
    },
  ] as const satisfies readonly JobDefinition[];
}

/** The ids of the jobs every server instance runs: what its `workers.wake` takes. */
export type ServerJobId = ReturnType<typeof serverJobs>[number]["id"];
