import type { ClientStatus } from "@licensing/client";
import type { ScenarioResult, TimelineEvent } from "../runner/timeline.ts";
import { formatElapsed, formatTime, STATUS_COLOURS } from "./format.ts";

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

const WIDTH = 1000;
const BAND_Y = 18;
const BAND_HEIGHT = 22;
const ROW_GAP = 4;

interface Band {
  from: number;
  to: number;
  status: ClientStatus | null;
}

/**
 * A client's status over scenario time (the main program's, or with `machine` the one on that computer):
 * each event's status holds until the next change. The view runs a little past the last event, so the
 * final status shows (also in a scenario that takes no time).
 */
export function statusBands(
  result: ScenarioResult,
  machine: string | null = null,
): { bands: Band[]; last: number; end: number } {
  const last = Math.max(0, ...result.events.map((e) => e.elapsed));
  const end = last + Math.max(1, Math.round(last * 0.04));
  const bands: Band[] = [];
  for (const event of result.events) {
    if ((event.machine ?? null) !== machine && !(machine === null && event.kind === "setup")) continue;
    const previous = bands.at(-1);
    if (previous && previous.status === event.status) continue;
    if (previous) previous.to = event.elapsed;
    bands.push({ from: event.elapsed, to: end, status: event.status });
  }
  return { bands: bands.filter((b) => b.to > b.from), last, end };
}

/** The main program, then each other computer in the order the scenario first used it. */
const machinesOf = (result: ScenarioResult) => [
  null,
  ...new Set(result.events.flatMap((e) => (e.machine ? [e.machine] : []))),
];

function timelineSvg(result: ScenarioResult): string {
  const machines = machinesOf(result);
  const { last, end } = statusBands(result);
  const x = (elapsed: number) => ((elapsed / end) * WIDTH).toFixed(2);
  const rowY = (row: number) => BAND_Y + row * (BAND_HEIGHT + ROW_GAP);
  const rects = machines
    .map((machine, row) => {
      const band = statusBands(result, machine)
        .bands.map((band) => {
          const colour = band.status ? STATUS_COLOURS[band.status].css : "#e5e7eb";
          const width = Math.max(1, ((band.to - band.from) / end) * WIDTH).toFixed(2);
          const until = band.to === end ? "end" : formatElapsed(band.to);
          const label = `${machine ? `${machine}: ` : ""}${band.status ?? "not running"}: ${formatElapsed(band.from)} → ${until}`;
          return `<rect x="${x(band.from)}" y="${rowY(row)}" width="${width}" height="${BAND_HEIGHT}" fill="${colour}"><title>${escape(label)}</title></rect>`;
        })
        .join("");
      const name = machine
        ? `<text x="4" y="${rowY(row) + BAND_HEIGHT - 6}" fill="#111827">${escape(machine)}</text>`
        : "";
      return band + name;
    })
    .join("");
  const bottom = rowY(machines.length - 1) + BAND_HEIGHT;
  const ticks = result.events
    .filter((e) => e.kind === "step")
    .map((e) => {
      const bad = e.outcome !== "ok";
      const colour = bad ? "#b91c1c" : "#111827";
      const title = `${formatElapsed(e.elapsed)} line ${e.line}: ${e.step}${e.message ? ` — ${e.message}` : ""}`;
      return `<g><line x1="${x(e.elapsed)}" x2="${x(e.elapsed)}" y1="4" y2="${bottom + 4}" stroke="${colour}" stroke-width="${bad ? 3 : 1}"/>${bad ? `<circle cx="${x(e.elapsed)}" cy="8" r="5" fill="${colour}"/>` : ""}<title>${escape(title)}</title></g>`;
    })
    .join("");
  const axis = `<text x="0" y="${bottom + 18}">${escape(formatTime(result.startedAt))}</text><text x="${WIDTH}" y="${bottom + 18}" text-anchor="end">${escape(`${formatTime(result.endedAt)} (${formatElapsed(last)})`)}</text>`;
  return `<svg viewBox="0 0 ${WIDTH} ${bottom + 24}" role="img" aria-label="Status over time">${rects}${ticks}${axis}</svg>`;
}

function eventRow(event: TimelineEvent): string {
  const status = event.status
    ? `<span class="status" style="background:${STATUS_COLOURS[event.status].css}">${event.status}</span>`
    : "—";
  const clock =
    event.clockAt !== event.at ? ` <span class="clock">clock ${formatTime(event.clockAt)}</span>` : "";
  const requests = event.requests
    ? ` <span class="muted">requests ${event.requests.ok} ok, ${event.requests.refused} refused, ${event.requests.failed} failed</span>`
    : "";
  return `<tr class="${event.kind} ${event.outcome}"><td>${escape(formatElapsed(event.elapsed))}</td><td>${escape(formatTime(event.at))}${clock}</td><td>${event.line ?? ""}</td><td>${event.kind === "transition" ? "↳ " : ""}${escape(event.step)}</td><td>${status}</td><td>${escape(event.reason ?? "")}</td><td>${escape(event.message ?? "")}${requests}</td></tr>`;
}

/** The overview: one row per scenario, its status bands alone (no ticks), linking to its section. */
function overviewRow(result: ScenarioResult, index: number): string {
  const { bands, end } = statusBands(result);
  const rects = bands
    .map((band) => {
      const colour = band.status ? STATUS_COLOURS[band.status].css : "#e5e7eb";
      const x = ((band.from / end) * WIDTH).toFixed(2);
      const width = Math.max(1, ((band.to - band.from) / end) * WIDTH).toFixed(2);
      return `<rect x="${x}" y="0" width="${width}" height="14" fill="${colour}"><title>${escape(band.status ?? "not running")}</title></rect>`;
    })
    .join("");
  const verdict = result.ok ? `<span class="pass">✓</span>` : `<span class="fail">✗</span>`;
  return `<tr><td>${verdict}</td><td><a href="#scenario-${index}">${escape(result.name)}</a></td><td class="band"><svg viewBox="0 0 ${WIDTH} 14" preserveAspectRatio="none">${rects}</svg></td><td>${escape(formatElapsed(Math.max(0, ...result.events.map((e) => e.elapsed))))}</td></tr>`;
}

function scenarioSection(result: ScenarioResult, index: number): string {
  const verdict = result.ok
    ? `<span class="pass">passed</span>`
    : `<span class="fail">failed${result.failures ? `: ${result.failures} expectation(s)` : ""}${result.error ? ` — ${escape(result.error)}` : ""}</span>`;
  return `<section id="scenario-${index}" class="${result.ok ? "ok" : "bad"}">
<h2>${escape(result.name)} ${verdict}</h2>
<p class="muted">${escape(result.file)} · ${result.mode === "local" ? "in-process server, virtual clock" : "remote server, client clock only"} · ${(result.realMs / 1000).toFixed(2)} s${result.description ? ` · ${escape(result.description)}` : ""}</p>
${timelineSvg(result)}
<details${result.ok ? "" : " open"}><summary>Timeline (${result.events.length} rows)</summary>
<table><thead><tr><th>Elapsed</th><th>Time (UTC)</th><th>Line</th><th>Step</th><th>Status</th><th>Reason</th><th>Result</th></tr></thead><tbody>
${result.events.map(eventRow).join("\n")}
</tbody></table></details>
</section>`;
}

/** A self-contained HTML page: per scenario, the status as coloured bands over time, and its timeline. */
export function htmlReport(results: ScenarioResult[], generatedAt: Date): string {
  const failed = results.filter((r) => !r.ok).length;
  const legend = (Object.keys(STATUS_COLOURS) as ClientStatus[])
    .map((s) => `<span class="status" style="background:${STATUS_COLOURS[s].css}">${s}</span>`)
    .join(" ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>licensing-sim report</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#111827;max-width:1200px}
h1{font-size:1.4rem}h2{font-size:1.05rem;margin:.2rem 0}
section{border:1px solid #d1d5db;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
section.bad{border-color:#b91c1c}
svg{width:100%;height:auto;font-size:12px;fill:#374151}
.pass{color:#15803d}.fail{color:#b91c1c}.muted{color:#6b7280}.clock{color:#0e7490}
.status{color:#fff;border-radius:3px;padding:0 .35rem;font-size:12px}
table{border-collapse:collapse;width:100%;font-size:13px}td,th{text-align:left;padding:.15rem .5rem;border-bottom:1px solid #f3f4f6;vertical-align:top}
table.overview td.band{width:60%}table.overview svg{height:14px;display:block}
tr.transition td{color:#4b5563;font-style:italic}tr.failed,tr.error,tr.refused{background:#fef2f2}
</style></head><body>
<h1>licensing-sim: ${results.length} scenario(s), ${failed === 0 ? `<span class="pass">all passed</span>` : `<span class="fail">${failed} failed</span>`}</h1>
<p class="muted">Generated ${escape(generatedAt.toISOString())}. ${legend} <span class="muted">Ticks are steps; red ones failed.</span></p>
<table class="overview"><thead><tr><th></th><th>Scenario</th><th>Status over its time</th><th>Length</th></tr></thead><tbody>
${results.map(overviewRow).join("\n")}
</tbody></table>
${results.map(scenarioSection).join("\n")}
</body></html>
`;
}
