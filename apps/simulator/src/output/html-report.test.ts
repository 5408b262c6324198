import { describe, expect, it } from "vitest";
import type { ScenarioResult, TimelineEvent } from "../runner/timeline.ts";
import { htmlReport, statusBands } from "./html-report.ts";

const DAY = 86_400_000;
const event = (elapsed: number, status: TimelineEvent["status"], step = "step"): TimelineEvent => ({
  kind: "step",
  at: elapsed,
  clockAt: elapsed,
  elapsed,
  line: 1,
  machine: null,
  step,
  status,
  reason: null,
  outcome: "ok",
  message: null,
  requests: null,
});
const result = (events: TimelineEvent[]): ScenarioResult => ({
  file: "f.yaml",
  name: "<Offline> & back",
  description: null,
  mode: "local",
  ok: true,
  startedAt: 0,
  endedAt: events.at(-1)!.elapsed,
  failures: 0,
  error: null,
  events,
  realMs: 10,
});

describe("statusBands", () => {
  it("one band per status run, the last one running past the last event", () => {
    const { bands, last, end } = statusBands(
      result([
        event(0, null),
        event(0, "Active"),
        event(DAY, "Active"),
        event(3 * DAY, "GracePeriod"),
        event(4 * DAY, "Expired"),
      ]),
    );
    expect(last).toBe(4 * DAY);
    expect(end).toBeGreaterThan(4 * DAY);
    expect(bands).toEqual([
      { from: 0, to: 3 * DAY, status: "Active" },
      { from: 3 * DAY, to: 4 * DAY, status: "GracePeriod" },
      { from: 4 * DAY, to: end, status: "Expired" },
    ]);
  });

  it("a band per computer: the main program's, and with a machine that of the program on it", () => {
    const onLaptop = (elapsed: number, status: TimelineEvent["status"]): TimelineEvent => ({
      ...event(elapsed, status),
      machine: "home-laptop",
    });
    const scenario = result([
      event(0, null),
      event(0, "Active"),
      onLaptop(DAY, "Expired"),
      onLaptop(2 * DAY, "Active"),
      event(3 * DAY, "Active"),
    ]);
    const { end } = statusBands(scenario);
    expect(statusBands(scenario).bands).toEqual([{ from: 0, to: end, status: "Active" }]);
    expect(statusBands(scenario, "home-laptop").bands).toEqual([
      { from: DAY, to: 2 * DAY, status: "Expired" },
      { from: 2 * DAY, to: end, status: "Active" },
    ]);
    const html = htmlReport([scenario], new Date(0));
    expect(html).toContain("<title>home-laptop: Expired: T+1d → T+2d</title>");
    expect(html).toContain(">home-laptop</text>");
  });

  it("a scenario that takes no time still shows its final status", () => {
    const { bands } = statusBands(result([event(0, null), event(0, "Invalid")]));
    expect(bands).toEqual([{ from: 0, to: 1, status: "Invalid" }]);
  });
});

describe("htmlReport", () => {
  it("an overview row per scenario with its bands, linking to its section", () => {
    const html = htmlReport(
      [
        result([event(0, "Active"), event(3 * DAY, "GracePeriod")]),
        { ...result([event(0, "Invalid")]), name: "Second", ok: false },
      ],
      new Date(0),
    );
    const overview = html.slice(html.indexOf('<table class="overview">'), html.indexOf("</table>"));
    expect(overview.match(/<tr><td>/g)).toHaveLength(2);
    expect(overview).toContain('<a href="#scenario-0">&lt;Offline&gt; &amp; back</a>');
    expect(overview).toContain('<a href="#scenario-1">Second</a>');
    expect(overview).toMatch(
      /fill="#2e9d57"><title>Active<\/title>.*fill="#e0a21b"><title>GracePeriod<\/title>/,
    );
    expect(html).toContain('<section id="scenario-1" class="bad">');
  });

  it("escapes what scenarios write", () => {
    const html = htmlReport([result([event(0, "Active", "expect <b>")])], new Date(0));
    expect(html).toContain("&lt;Offline&gt; &amp; back");
    expect(html).toContain("expect &lt;b&gt;");
    expect(html).not.toContain("<b>");
  });
});
