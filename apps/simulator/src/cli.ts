import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Backend } from "./backend/backend.ts";
import { SimulatorError } from "./backend/panel-api.ts";
import { helpText } from "./help.ts";
import { htmlReport } from "./output/html-report.ts";
import { jsonReport } from "./output/json.ts";
import { formatScenario, formatSummary } from "./output/text.ts";
import type { ScenarioResult } from "./runner/timeline.ts";
import { parseScenario, ScenarioError, type Scenario } from "./scenario/parse.ts";

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  isTty: boolean;
  env: Record<string, string | undefined>;
}

const processIo = (): CliIo => ({
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  isTty: Boolean(process.stdout.isTTY),
  env: process.env,
});

class UsageError extends Error {}

/** The scenario files named on the command line; a folder stands for its `.yaml`/`.yml` files, sorted. */
async function scenarioFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (!info) throw new UsageError(`${path}: no such file or folder`);
    if (!info.isDirectory()) files.push(path);
    else
      files.push(
        ...(await readdir(path))
          .filter((name) => /\.ya?ml$/.test(name))
          .sort()
          .map((name) => join(path, name)),
      );
  }
  if (files.length === 0) throw new UsageError("no scenario files");
  return files;
}

/** `licensing-sim …`; resolves to the exit status. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  let options;
  try {
    options = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        report: { type: "string" },
        "server-url": { type: "string" },
        token: { type: "string" },
        "template-id": { type: "string" },
        "no-color": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    io.stderr(`licensing-sim: ${(error as Error).message}\nSee licensing-sim --help.\n`);
    return 2;
  }
  const { values, positionals } = options;
  if (values.help || positionals[0] === "help") {
    io.stdout(helpText());
    return 0;
  }
  const [command, ...paths] = positionals;
  try {
    if (command !== "run") throw new UsageError(command ? `unknown command "${command}"` : "no command");
    const serverUrl = values["server-url"];
    if (serverUrl && !values.token) throw new UsageError("--server-url needs --token svc_pat_…");
    if (!serverUrl && (values.token || values["template-id"]))
      throw new UsageError("--token and --template-id go with --server-url");
    if (serverUrl && !/^https?:\/\//.test(serverUrl))
      throw new UsageError("--server-url must be an http(s) URL");
    const files = await scenarioFiles(paths);
    // Every file is read and checked before anything runs: a typo is found in a second, not after a run.
    const scenarios: Scenario[] = [];
    for (const file of files) scenarios.push(parseScenario(await readFile(file, "utf8"), file));

    // Loaded only to run: --help and a bad command line answer without starting the server's modules.
    const [{ startLocalServer }, { connectRemoteServer }, { runScenario }] = await Promise.all([
      import("./backend/local.ts"),
      import("./backend/remote.ts"),
      import("./runner/run-scenario.ts"),
    ]);
    const colour = !values["no-color"] && io.isTty && !io.env.NO_COLOR && !values.json;
    const backend: Backend = serverUrl
      ? await connectRemoteServer({ url: serverUrl, token: values.token!, templateId: values["template-id"] })
      : await startLocalServer();
    const results: ScenarioResult[] = [];
    try {
      for (const scenario of scenarios) {
        await backend.prepare({
          start: scenario.start,
          heartbeatIntervalSeconds: Math.round(scenario.heartbeatInterval / 1000),
        });
        const result = await runScenario(scenario, backend);
        results.push(result);
        if (!values.json) io.stdout(`${formatScenario(result, colour)}\n\n`);
      }
    } finally {
      await backend.close();
    }
    if (values.json) io.stdout(`${JSON.stringify(jsonReport(results), null, 2)}\n`);
    else io.stdout(`${formatSummary(results, colour)}\n`);
    if (values.report) {
      await writeFile(values.report, htmlReport(results, new Date()));
      if (!values.json) io.stdout(`Report: ${values.report}\n`);
    }
    return results.every((r) => r.ok) ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`licensing-sim: ${error.message}\nSee licensing-sim --help.\n`);
      return 2;
    }
    if (error instanceof ScenarioError) {
      io.stderr(`licensing-sim: ${error.message}\n`);
      return 2;
    }
    if (error instanceof SimulatorError) {
      io.stderr(`licensing-sim: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
