import type { ClientStatus, StatusReason } from "@licensing/client";
import type { NetworkCounts } from "../runtime/network.ts";

export type Outcome =
  /** The step ran (or the expectation held). */
  | "ok"
  /** An expectation did not hold; the scenario goes on and fails at the end. */
  | "failed"
  /** The step could not run (the server refused an action, a bad state); the scenario stops. */
  | "error"
  /** Refused against a deployed server; the scenario stops. */
  | "refused";

/** One row of a scenario's timeline: a step, or a status change that happened while time passed. */
export interface TimelineEvent {
  kind: "setup" | "step" | "transition";
  /** The true time (the server's clock), epoch ms. */
  at: number;
  /** This machine's clock (differs from `at` after set-clock). */
  clockAt: number;
  /** Milliseconds of scenario time since the start. */
  elapsed: number;
  /** Line in the scenario file; null for setup and transitions. */
  line: number | null;
  /** The computer the row is about: null for the main program, else the machine of an `on` step's. */
  machine: string | null;
  /** The step as written, or what happened. */
  step: string;
  /** The client's status afterwards; null while no application runs. */
  status: ClientStatus | null;
  reason: StatusReason | null;
  outcome: Outcome;
  /** What the step did or found: `initialize() → true`, `expected Active, got GracePeriod (marker-expired)`. */
  message: string | null;
  /** The client's requests during the step, when it made any. */
  requests: NetworkCounts | null;
}

export interface ScenarioResult {
  file: string;
  name: string;
  description: string | null;
  mode: "local" | "remote";
  ok: boolean;
  /** True time at the start and at the end (epoch ms). */
  startedAt: number;
  endedAt: number;
  /** Expectations that failed, and the error that stopped the scenario, if one did. */
  failures: number;
  error: string | null;
  events: TimelineEvent[];
  /** Real milliseconds the scenario took. */
  realMs: number;
}
