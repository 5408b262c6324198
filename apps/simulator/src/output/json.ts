import type { ScenarioResult } from "../runner/timeline.ts";

const iso = (ms: number) => new Date(ms).toISOString();

/** `--json`: the results with times as ISO text (elapsed stays in milliseconds). */
export function jsonReport(results: ScenarioResult[]) {
  return {
    ok: results.every((r) => r.ok),
    scenarios: results.map((result) => ({
      ...result,
      startedAt: iso(result.startedAt),
      endedAt: iso(result.endedAt),
      events: result.events.map((event) => ({ ...event, at: iso(event.at), clockAt: iso(event.clockAt) })),
    })),
  };
}
