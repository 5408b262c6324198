/** licensing-sim as a library: parse scenarios, run them against a server, and render the results. */
export { parseScenario, ScenarioError, type Scenario, type ScenarioStep } from "./scenario/parse.ts";
export { parseStep, STEP_SPECS, type Step } from "./scenario/steps.ts";
export { parseDuration, formatDuration } from "./scenario/duration.ts";
export { runScenario, ScenarioRun } from "./runner/run-scenario.ts";
export type { ScenarioResult, TimelineEvent, Outcome } from "./runner/timeline.ts";
export { startLocalServer } from "./backend/local.ts";
export { connectRemoteServer } from "./backend/remote.ts";
export type { Backend } from "./backend/backend.ts";
export { formatScenario, formatSummary } from "./output/text.ts";
export { htmlReport } from "./output/html-report.ts";
export { jsonReport } from "./output/json.ts";
export { main } from "./cli.ts";
