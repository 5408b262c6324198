import { inWindow, type FaultWindow } from "./faults.ts";
import type { Check } from "./invariants.ts";
import type { RssSample } from "./memory.ts";
import { percentile, type Recorder } from "./record.ts";

export interface Report {
  settings: Record<string, string | number>;
  loadAverage: { start: number[]; end: number[] };
  durationSeconds: number;
  requests: number;
  throughput: number;
  operations: { op: string; ok: number; refused: number; errors: number; p50: number; p99: number }[];
  refusals: Record<string, number>;
  errors: { key: string; inFaultWindows: number; outside: number }[];
  /** The first errors outside the fault windows, with their time, to look into. */
  outsideErrors: { at: number; op: string; key: string }[];
  faults: FaultWindow[];
  rss: RssSample[];
  schedulerLatenessP99Ms: number;
  figures: Record<string, number>;
  checks: Check[];
}

export function buildReport(input: {
  recorder: Recorder;
  durationSeconds: number;
  windows: FaultWindow[];
  rss: RssSample[];
  lateness: number[];
  settings: Report["settings"];
  loadAverage: Report["loadAverage"];
  figures: Record<string, number>;
  checks: Check[];
}): Report {
  const { recorder, windows } = input;
  const ops = [...new Set([...recorder.latencies.keys(), ...recorder.errors.map((e) => e.op)])];
  const operations = ops.map((op) => {
    const sorted = [...(recorder.latencies.get(op) ?? [])].sort((a, b) => a - b);
    let refused = 0;
    for (const [key, n] of recorder.refused) if (key.startsWith(`${op} `)) refused += n;
    return {
      op,
      ok: recorder.ok.get(op) ?? 0,
      refused,
      errors: recorder.errors.filter((e) => e.op === op).length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
    };
  });
  const errors = new Map<string, { inFaultWindows: number; outside: number }>();
  for (const e of recorder.errors) {
    const key = `${e.op} ${e.key}`;
    const entry = errors.get(key) ?? { inFaultWindows: 0, outside: 0 };
    if (inWindow(windows, e.at)) entry.inFaultWindows++;
    else entry.outside++;
    errors.set(key, entry);
  }
  const requests = recorder.total();
  return {
    settings: input.settings,
    loadAverage: input.loadAverage,
    durationSeconds: input.durationSeconds,
    requests,
    throughput: requests / input.durationSeconds,
    operations,
    refusals: Object.fromEntries(recorder.refused),
    errors: [...errors].map(([key, v]) => ({ key, ...v })).sort((a, b) => a.key.localeCompare(b.key)),
    outsideErrors: recorder.errors.filter((e) => !inWindow(windows, e.at)).slice(0, 20),
    faults: windows,
    rss: input.rss,
    schedulerLatenessP99Ms: percentile(
      [...input.lateness].sort((a, b) => a - b),
      99,
    ),
    figures: input.figures,
    checks: input.checks,
  };
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

export function printReport(report: Report) {
  const lines: string[] = [];
  const out = (line = "") => lines.push(line);
  const s = report.settings;
  out(
    `\nSoak: ${Object.entries(s)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  out(
    `load average at start ${report.loadAverage.start.map((n) => n.toFixed(2)).join(" ")}, at end ${report.loadAverage.end.map((n) => n.toFixed(2)).join(" ")}`,
  );
  out(
    `\nThroughput: ${report.requests} requests in ${report.durationSeconds.toFixed(0)} s = ${report.throughput.toFixed(0)}/s ` +
      `(the scheduler started requests up to ${report.schedulerLatenessP99Ms.toFixed(0)} ms after their due time, p99)`,
  );
  out(
    `\n${"operation".padEnd(16)}${pad("2xx", 9)}${pad("refused", 9)}${pad("errors", 8)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}`,
  );
  for (const o of report.operations)
    out(
      `${o.op.padEnd(16)}${pad(o.ok, 9)}${pad(o.refused, 9)}${pad(o.errors, 8)}${pad(o.p50.toFixed(1), 9)}${pad(o.p99.toFixed(1), 9)}`,
    );
  out(`\nRefusals (expected: more machines than seats)`);
  for (const [key, n] of Object.entries(report.refusals)) out(`  ${key.padEnd(52)}${pad(n, 8)}`);
  out(`\nErrors by code${"".padEnd(38)}${pad("in fault", 10)}${pad("outside", 9)}`);
  if (report.errors.length === 0) out("  none");
  for (const e of report.errors) out(`  ${e.key.padEnd(50)}${pad(e.inFaultWindows, 10)}${pad(e.outside, 9)}`);
  if (report.outsideErrors.length)
    out(
      `  outside the windows: ${report.outsideErrors.map((e) => `${e.at.toFixed(1)} s ${e.op} ${e.key}`).join("; ")}`,
    );
  out(`\nFaults`);
  for (const f of report.faults)
    out(
      `  ${f.at.toFixed(1).padStart(6)} s  ${f.name}: recovered after ${((f.recoveredAt ?? NaN) - f.at).toFixed(1)} s (${f.detail}); window to ${(f.until ?? NaN).toFixed(1)} s`,
    );
  out(`\nRSS (MiB) over time, and the heap in use (/metrics) after the slash`);
  const names = [...new Set(report.rss.map((r) => r.process))];
  out(
    `${"t (s)".padStart(7)}${names.map((n) => pad(n === "load" ? "load gen" : `instance ${n}`, 12)).join("")}`,
  );
  const times = [...new Set(report.rss.map((r) => r.at))];
  const step = Math.max(1, Math.ceil(times.length / 20));
  times.forEach((at, i) => {
    if (i % step !== 0 && i !== times.length - 1) return;
    const row = names.map((n) => {
      const sample = report.rss.find((r) => r.at === at && r.process === n);
      const heap = sample?.heapMiB === undefined ? "" : `/${sample.heapMiB.toFixed(0)}`;
      return pad(sample ? `${sample.mib.toFixed(0)}${heap}` : "—", 12);
    });
    out(`${pad(at.toFixed(0), 7)}${row.join("")}`);
  });
  out(`\nInvariants`);
  for (const c of report.checks)
    out(`  ${c.judged === false ? "·" : c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}`);
  console.log(lines.join("\n"));
}
