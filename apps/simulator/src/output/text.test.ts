import { describe, expect, it } from "vitest";
import type { ScenarioResult, TimelineEvent } from "../runner/timeline.ts";
import { formatScenario, formatSummary } from "./text.ts";

const DAY = 86_400_000;
const START = Date.parse("2026-01-01T00:00:00Z");
const event = (partial: Partial<TimelineEvent>): TimelineEvent => ({
  kind: "step",
  at: START,
  clockAt: START,
  elapsed: 0,
  line: 3,
  machine: null,
  step: "start",
  status: "Active",
  reason: "marker-valid",
  outcome: "ok",
  message: null,
  requests: null,
  ...partial,
});
const result: ScenarioResult = {
  file: "s.yaml",
  name: "Grace",
  description: null,
  mode: "local",
  ok: false,
  startedAt: START,
  endedAt: START + 3 * DAY,
  failures: 1,
  error: null,
  realMs: 1234,
  events: [
    event({ requests: { ok: 1, refused: 0, failed: 0 }, message: "initialize() → true" }),
    event({
      kind: "transition",
      line: null,
      step: "Active → GracePeriod",
      status: "GracePeriod",
      reason: "marker-expired",
      elapsed: 3 * DAY,
      at: START + 3 * DAY,
      clockAt: START + DAY,
    }),
    event({
      step: "expect status Expired",
      line: 5,
      status: "GracePeriod",
      reason: "marker-expired",
      elapsed: 3 * DAY,
      at: START + 3 * DAY,
      clockAt: START + 3 * DAY,
      outcome: "failed",
      message: "expected Expired, got GracePeriod (marker-expired)",
    }),
  ],
};

describe("formatScenario", () => {
  it("prints time, step, status, reason and result; the machine's clock when it differs", () => {
    const lines = formatScenario(result, false).split("\n");
    expect(lines[0]).toBe("▶ Grace  s.yaml (in-process server, virtual clock)");
    expect(lines[1]).toMatch(
      /^ {4}T\+0s +2026-01-01 00:00:00 +start +Active +marker-valid +initialize\(\) → true \[requests: 1 ok\]$/,
    );
    expect(lines[2]).toMatch(
      /^ {4}T\+3d +2026-01-04 00:00:00 +↳ Active → GracePeriod +GracePeriod +marker-expired +\(clock 2026-01-02 00:00:00\)$/,
    );
    expect(lines[3]).toMatch(/^ {2}✗ T\+3d .* expected Expired, got GracePeriod \(marker-expired\)$/);
    expect(lines[4]).toBe("  ✗ failed: 1 expectation failed (1.23 s)");
  });

  it("marks a held expectation, also one on another machine", () => {
    const held = (step: string) =>
      formatScenario({ ...result, events: [event({ step })] }, false)
        .split("\n")[1]!
        .slice(0, 3);
    expect(held("expect status Active")).toBe("  ✓");
    expect(held("on home-laptop expect status Active")).toBe("  ✓");
    expect(held("on home-laptop start")).toBe("   ");
  });

  it("colours the statuses and the failures on a terminal", () => {
    const text = formatScenario(result, true);
    expect(text).toContain("\x1b[32mActive");
    expect(text).toContain("\x1b[33mGracePeriod");
    expect(text).toContain("\x1b[31m✗\x1b[0m");
    expect(formatScenario(result, false)).not.toContain("\x1b[");
  });

  it("sums up a run", () => {
    expect(formatSummary([result], false)).toBe("1 of 1 scenario failed: s.yaml");
    expect(
      formatSummary(
        [
          { ...result, ok: true },
          { ...result, ok: true },
        ],
        false,
      ),
    ).toBe("2 scenarios passed");
  });
});
