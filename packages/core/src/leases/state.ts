import type { Db } from "@licensing/db";
import { LatencyMirror } from "../activations/latency-mirror.ts";
import type { Clock } from "../clock.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { LeaseRenewer } from "./renewer.ts";

/** What the lease endpoints keep between calls: the renewal batcher and the latency of their answers. */
export interface LeaseState {
  renewals: LeaseRenewer;
  /** Unknown license keys are answered after as long as a lease call takes (`loadFloatingLicense`). */
  latency: LatencyMirror;
}

export function createLeaseState(options: { db: Db; clock: Clock; metrics?: Metrics }): LeaseState {
  return {
    renewals: new LeaseRenewer(options.db, options.clock, options.metrics),
    latency: new LatencyMirror(3),
  };
}
