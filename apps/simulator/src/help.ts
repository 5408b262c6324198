import { COMPONENT_KINDS } from "./runtime/machine.ts";
import { STEP_SPECS } from "./scenario/steps.ts";

const wrap = (text: string, indent: number, width = 100) => {
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + word.length + 1 > width - indent) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => " ".repeat(indent) + l).join("\n");
};

/** `licensing-sim --help`: the command, its options, the scenario file and every step. */
export function helpText(): string {
  const steps = STEP_SPECS.map((spec) => {
    const remote =
      spec.remote === "refused"
        ? " With --server-url: refused."
        : spec.remote === "client-offline"
          ? " With --server-url: moves only this machine's clock, and only while the client cannot reach the server (offline, server-errors) or no application runs."
          : "";
    return `  ${spec.usage}\n${wrap(spec.summary + remote, 6)}`;
  }).join("\n");
  return `licensing-sim: QA scenarios of the licensing client library's offline behaviour.

Usage:
  licensing-sim run <scenario.yaml | folder>… [options]
  licensing-sim --help

By default each scenario runs against the real licensing server started in this process on an in-memory
database, with ONE virtual clock shared by the server (API, markers, sweepers) and the client library, so
"advance 31d" takes milliseconds. With --server-url it runs against a deployed server instead: only this
machine's clock moves, and steps that need the server's clock to move are refused.

Options:
  --json                  Print the results as JSON on stdout (no timeline).
  --report <file.html>    Also write a self-contained HTML report: status bands over time, one row per scenario.
  --server-url <url>      Run against a deployed server (its base address).
  --token <svc_pat_…>     With --server-url: a personal access token of an Admin of the customer company.
  --template-id <id>      With --server-url: the template to issue from (default: the first active one).
  --no-color              No colours (default: colours when stdout is a terminal and NO_COLOR is unset).
  -h, --help              This text.

Exit status: 0 when every expectation held; 1 when one failed or a scenario could not run; 2 for a bad
command line or scenario file.

A scenario file (YAML):
  name: Offline until the marker expires, then grace       # required
  description: …                                            # optional
  start: 2026-01-01T00:00:00Z     # the shared clock's start (in-process server only)
  machine: sim-machine-a          # the machine the program runs on; its hardware derives from the name
  fingerprintVersion: 2           # the SDK option (1 or 2); default the SDK's choice
  heartbeatInterval: 15m          # the server's heartbeat interval (in-process server only)
  deactivateOnDispose: true       # the SDK option used by stop and restart (false: a changed machine can heal)
  license:                        # issued by an Admin and downloaded before the first step
    offlineDays: 7                # the marker's lifetime
    validFor: 365d                # the token's hard expiry, from the start
    trial: false
    binding: none                 # none | fixed (to machine) | firstActivation
    features: [export]
    limits: { maxSeats: 3 }
    config: {}                    # further members of the license's config
    fingerprintMatch: fuzzy       # exact | strict | fuzzy | loose (default the template's)
    maxNewDevicesPerWindow: 3     # the device budget (default none)
    newDeviceWindowDays: 30
  steps:                          # one line each, in order
    - start
    - offline
    - advance to marker-exp -1s
    - expect status Active

Durations: 3d, 90m, 45s, 500ms, 1w, and sums such as 1d12h, 24h+1s, 7d-1s. Quote a step that holds ": " or " #".
Machines are named (office-pc); the SDK reads the simulated machine's fingerprint sources and computes the
fingerprint and components from them, once per start. Components:
  ${COMPONENT_KINDS.join(", ")}.
The timeline shows for each step the scenario time (T+…), the true time (UTC), the client's status and
reason afterwards, and what happened; status changes while time passes show as ↳ rows.

Steps:
${steps}
`;
}
