import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** What `npm start` runs: the compiled server (built first when stale), in a process of its own. */
const START = fileURLToPath(new URL("../../../../scripts/start.mjs", import.meta.url));

/** A bound on a hang (a first `npm start` builds), never a claim about speed. */
const START_PATIENCE_MS = 120_000;

/**
 * One server process started as `npm start` starts it, on a port of its own that it keeps across
 * restarts, as a load balancer's backend does.
 */
export interface Instance {
  name: string;
  port: number;
  url: string;
  /** Everything the current process wrote (stdout and stderr), and what earlier ones of this instance wrote. */
  output(): string;
  /** Whether a process of this instance is running. */
  running(): boolean;
  /** The current process's id (the server itself: `npm start` runs it in-process), while one runs. */
  pid(): number | undefined;
  /** SIGKILL, as `kill -9`: no shutdown code runs. Resolves when the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful shutdown); resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Starts the process again with the same environment and port; resolves once `/readyz` answers 200. */
  restart(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `count` instances of the server at once, each with `env` (plus its own PORT and DATA_DIR), and
 * resolves once every one answers `/readyz` with 200. They share whatever `env` names: the database
 * (DATABASE_URL), Redis (REDIS_URL) and the master key (LICENSING_MASTER_KEY), as a real deployment does.
 */
export async function startInstances(count: number, env: Record<string, string>): Promise<Instance[]> {
  const instances = await Promise.all(
    Array.from({ length: count }, async (_, i) =>
      instance(String.fromCharCode(65 + i), await freePort(), env),
    ),
  );
  try {
    await Promise.all(instances.map((one) => one.restart()));
  } catch (error) {
    await stopAll(instances);
    throw error;
  }
  return instances;
}

/** Ends every running instance with SIGKILL (test clean-up). */
export async function stopAll(instances: Instance[]) {
  await Promise.all(instances.filter((one) => one.running()).map((one) => one.kill9()));
}

function instance(name: string, port: number, env: Record<string, string>): Instance {
  const dataDir = mkdtempSync(join(tmpdir(), `licensing-instance-${name}-`));
  let child: ChildProcess | undefined;
  let output = "";
  const exited = (process: ChildProcess) =>
    process.exitCode !== null || process.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => process.once("exit", () => resolve()));

  const self: Instance = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    pid: () => (self.running() ? child!.pid : undefined),
    async kill9() {
      if (!child) return;
      const gone = exited(child);
      child.kill("SIGKILL");
      await gone;
    },
    async stop() {
      if (!child) return null;
      const current = child;
      const gone = exited(current);
      current.kill("SIGTERM");
      await gone;
      rmSync(dataDir, { recursive: true, force: true });
      return current.exitCode;
    },
    async restart() {
      if (self.running()) throw new Error(`instance ${name} is running`);
      output += `\n--- instance ${name} (re)started ---\n`;
      const started = spawn(process.execPath, [START], {
        env: { ...process.env, SHUTDOWN_DRAIN_SECONDS: "0", ...env, PORT: String(port), DATA_DIR: dataDir },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = started;
      started.stdout!.on("data", (d: Buffer) => (output += d.toString()));
      started.stderr!.on("data", (d: Buffer) => (output += d.toString()));
      const deadline = Date.now() + START_PATIENCE_MS;
      for (;;) {
        if (started.exitCode !== null || started.signalCode !== null)
          throw new Error(`instance ${name} exited (${started.exitCode ?? started.signalCode}):\n${output}`);
        const ready = await fetch(`${self.url}/readyz`).then(
          (res) => res.status === 200,
          () => false,
        );
        if (ready) return;
        if (Date.now() > deadline) throw new Error(`instance ${name} not ready in time:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
  return self;
}

/** Hands out the instances in turn, as a round-robin load balancer does. */
export function roundRobin<T>(targets: readonly T[]): () => T {
  let next = 0;
  return () => targets[next++ % targets.length]!;
}
