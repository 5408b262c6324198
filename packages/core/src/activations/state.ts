import type { Db } from "@licensing/db";
import type { Clock } from "../clock.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { prepareActivation, type ActivationStatement } from "./activate.ts";
import { HeartbeatWriter } from "./heartbeat-writer.ts";
import { LatencyMirror } from "./latency-mirror.ts";

/** What the client API keeps between calls: prepared statements, the heartbeat batcher, latency figures. */
export interface ActivationState {
  /** Prepared once per `Deps` (and planned once per pooled connection by PostgreSQL). */
  activation: ActivationStatement;
  /** One writer per `Deps`, so concurrent heartbeats share its batches; it stamps beats with `clock`. */
  heartbeats: HeartbeatWriter;
  activateLatency: LatencyMirror;
  heartbeatLatency: LatencyMirror;
  machinesLatency: LatencyMirror;
}

export function createActivationState(options: {
  db: Db;
  telemetryDb: Db;
  clock: Clock;
  metrics?: Metrics;
}): ActivationState {
  return {
    activation: prepareActivation(options.db),
    heartbeats: new HeartbeatWriter(options.telemetryDb, options.clock, options.metrics),
    activateLatency: new LatencyMirror(5),
    heartbeatLatency: new LatencyMirror(2),
    machinesLatency: new LatencyMirror(2),
  };
}
