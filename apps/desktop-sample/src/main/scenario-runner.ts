import type { ScenarioRun } from "../shared/bridge.ts";

/**
 * Runs a `licensing-sim` scenario file and returns its timeline for the QA panel.
 * Pending: `@licensing/simulator` has not landed on main yet; until it does, the QA panel says so.
 */
export async function runScenarioFile(path: string, _options: { serverUrl: string }): Promise<ScenarioRun> {
  return {
    name: path,
    passed: false,
    entries: [],
    error: {
      code: "scenario.unavailable",
      message: "The QA simulator (licensing-sim) is not part of this build yet",
    },
  };
}
