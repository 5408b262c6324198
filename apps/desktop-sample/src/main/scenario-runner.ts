import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { CLIENT_STATUSES } from "@licensing/client";
import { z } from "zod";
import type { ScenarioRun, ScenarioTimelineEntry } from "../shared/bridge.ts";

/**
 * The QA panel's scenario runner: runs a `licensing-sim` scenario file (apps/simulator) in its own
 * process (`licensing-sim run <file> --json`: the real server in-process on the simulator's virtual clock,
 * shared with the SDK) and turns its JSON report into the panel's timeline. A child process keeps the
 * simulator's server, database and tsx out of the app's main process and its bundle (decision 0033).
 */
export interface ScenarioRunnerOptions {
  /** `licensing-sim`'s entry script; null when this build has no simulator (a packaged app). */
  simulatorBin: string | null;
  /** The Node.js executable that runs it. Default `node` from the PATH. */
  node?: string;
  /** Real milliseconds one scenario may take. Default 120 s. */
  timeoutMs?: number;
}

/** Finds `licensing-sim` through Node's resolution from `fromDir` (the monorepo's node_modules); null if absent. */
export function locateSimulator(fromDir: string): string | null {
  try {
    const entry = createRequire(join(fromDir, "noop.js")).resolve("@licensing/simulator");
    const bin = join(dirname(entry), "..", "bin", "licensing-sim.js");
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

const Event = z.object({
  kind: z.enum(["setup", "step", "transition"]),
  at: z.string(),
  elapsed: z.number(),
  line: z.number().nullable(),
  step: z.string(),
  status: z.enum(CLIENT_STATUSES).nullable(),
  outcome: z.string(),
  message: z.string().nullable(),
});
const Report = z.object({
  ok: z.boolean(),
  scenarios: z.array(
    z.object({ name: z.string(), ok: z.boolean(), error: z.string().nullable(), events: z.array(Event) }),
  ),
});

const failed = (name: string, code: string, message: string): ScenarioRun => ({
  name,
  passed: false,
  entries: [],
  error: { code, message },
});

export async function runScenarioFile(path: string, options: ScenarioRunnerOptions): Promise<ScenarioRun> {
  const file = basename(path);
  if (!options.simulatorBin) {
    return failed(
      file,
      "scenario.unavailable",
      "This build has no QA simulator (run the app from the repository)",
    );
  }
  const { stdout, stderr, exitCode } = await new Promise<{
    stdout: string;
    stderr: string;
    exitCode: number;
  }>((resolve) => {
    execFile(
      options.node ?? "node",
      [options.simulatorBin!, "run", path, "--json", "--no-color"],
      {
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: "1" },
      },
      (error, out, err) =>
        resolve({
          stdout: out,
          stderr: err,
          exitCode: error ? (typeof error.code === "number" ? error.code : -1) : 0,
        }),
    );
  });
  // Exit 2: a bad command line or scenario file, explained on stderr.
  if (exitCode !== 0 && exitCode !== 1) {
    const reason = stderr.trim().split("\n").slice(0, 3).join(" ") || `licensing-sim exited with ${exitCode}`;
    return failed(file, "scenario.failed", reason);
  }
  let report: z.infer<typeof Report>;
  try {
    report = Report.parse(JSON.parse(stdout));
  } catch {
    return failed(file, "scenario.failed", "licensing-sim did not print a report");
  }
  const scenario = report.scenarios[0];
  if (!scenario) return failed(file, "scenario.failed", "The file holds no scenario");
  const entries: ScenarioTimelineEntry[] = scenario.events.map((event) => ({
    kind: event.kind,
    line: event.line,
    step: event.step,
    elapsedMs: event.elapsed,
    at: Date.parse(event.at),
    status: event.status,
    ok: event.outcome === "ok",
    detail: event.message,
  }));
  return {
    name: scenario.name,
    passed: scenario.ok,
    entries,
    error: scenario.error ? { code: "scenario.failed", message: scenario.error } : null,
  };
}
