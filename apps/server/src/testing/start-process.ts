import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The real entry point, as `npm start` runs it: the compiled build, made first when stale. */
export const START_SCRIPT = fileURLToPath(new URL("../../../../scripts/start.mjs", import.meta.url));

export interface StartedProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** The exit code of a child process, when it exits. */
export const exitCode = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on("exit", resolve);
  });

/**
 * `npm start` in a child process with `env` over this process's environment (PORT 0, no DATABASE_URL and
 * no shutdown drain period unless given), resolving when it listens; rejects with its output when it exits first.
 */
export async function startProcess(
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<StartedProcess> {
  const child = spawn(process.execPath, [START_SCRIPT], {
    env: {
      ...process.env,
      PORT: "0",
      LOG_LEVEL: "info",
      DATABASE_URL: "",
      SHUTDOWN_DRAIN_SECONDS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start within ${timeoutMs / 1000} s:\n${output}`)),
      timeoutMs,
    );
    child.stdout!.on("data", () => {
      const match = /"port":(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new StartFailed(code, output));
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

/** A start that ended with the process exiting: its code and everything it printed. */
export class StartFailed extends Error {
  constructor(
    readonly code: number | null,
    readonly output: string,
  ) {
    super(`exited with ${code}:\n${output}`);
  }
}

/** SIGTERM, and the exit code. */
export async function stopProcess(started: StartedProcess) {
  const exited = exitCode(started.child);
  started.child.kill("SIGTERM");
  return exited;
}
