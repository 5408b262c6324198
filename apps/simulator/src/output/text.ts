import type { ScenarioResult, TimelineEvent } from "../runner/timeline.ts";
import { formatElapsed, formatTime, STATUS_COLOURS } from "./format.ts";

type Paint = (code: number | string, text: string) => string;

const ansi: Paint = (code, text) => `\x1b[${code}m${text}\x1b[0m`;
const plain: Paint = (_code, text) => text;

const MARKS = { ok: "✓", failed: "✗", error: "!", refused: "⊘" } as const;
const EXPECTATION = /^(on \S+ )?expect /;

function requestsText(event: TimelineEvent): string {
  const r = event.requests;
  if (!r) return "";
  const parts = [
    r.ok ? `${r.ok} ok` : "",
    r.refused ? `${r.refused} refused` : "",
    r.failed ? `${r.failed} failed` : "",
  ].filter(Boolean);
  return ` [requests: ${parts.join(", ")}]`;
}

/** A scenario's timeline for a terminal: time, step, status, reason, what happened. */
export function formatScenario(result: ScenarioResult, colour: boolean): string {
  const paint = colour ? ansi : plain;
  const mode =
    result.mode === "local" ? "in-process server, virtual clock" : "remote server, client clock only";
  const lines = [paint(1, `▶ ${result.name}`) + paint(90, `  ${result.file} (${mode})`)];
  const stepWidth = Math.min(
    44,
    Math.max(...result.events.map((e) => e.step.length + (e.kind === "transition" ? 2 : 0))),
  );
  for (const event of result.events) {
    const time = `${formatElapsed(event.elapsed).padEnd(11)} ${formatTime(event.at)}`;
    const step =
      event.kind === "transition"
        ? paint(2, `↳ ${event.step}`.padEnd(stepWidth))
        : event.step.padEnd(stepWidth);
    const status = event.status
      ? paint(STATUS_COLOURS[event.status].ansi, event.status.padEnd(11))
      : paint(90, "—".padEnd(11));
    const reason = (event.reason ?? "").padEnd(16);
    const mark =
      event.outcome === "ok"
        ? event.kind === "step" && EXPECTATION.test(event.step)
          ? paint(32, MARKS.ok)
          : " "
        : paint(31, MARKS[event.outcome]);
    const clock = event.clockAt !== event.at ? paint(36, ` (clock ${formatTime(event.clockAt)})`) : "";
    const message = event.message
      ? event.outcome === "ok"
        ? paint(90, event.message)
        : paint(31, event.message)
      : "";
    lines.push(
      `  ${mark} ${paint(90, time)}  ${step}  ${status} ${paint(90, reason)} ${message}${paint(90, requestsText(event))}${clock}`.trimEnd(),
    );
  }
  const seconds = (result.realMs / 1000).toFixed(2);
  if (result.ok) lines.push(paint(32, `  ✓ passed`) + paint(90, ` in ${seconds} s`));
  else {
    const why = [
      result.failures ? `${result.failures} expectation${result.failures === 1 ? "" : "s"} failed` : "",
      result.error ? `stopped: ${result.error}` : "",
    ].filter(Boolean);
    lines.push(paint(31, `  ✗ failed: ${why.join("; ")}`) + paint(90, ` (${seconds} s)`));
  }
  return lines.join("\n");
}

export function formatSummary(results: ScenarioResult[], colour: boolean): string {
  const paint = colour ? ansi : plain;
  const failed = results.filter((r) => !r.ok);
  const total = `${results.length} scenario${results.length === 1 ? "" : "s"}`;
  if (failed.length === 0) return paint(32, `${total} passed`);
  return paint(31, `${failed.length} of ${total} failed: ${failed.map((r) => r.file).join(", ")}`);
}
