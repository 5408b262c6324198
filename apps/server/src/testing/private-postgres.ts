import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { findPostgresBinDir } from "@licensing/api/testing/tools";

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own, in a temporary directory on a free port: a test may stop and
 * restart it without touching the machine's shared server. PostgreSQL refuses to run as root, so as root
 * the cluster belongs to the `postgres` user and its commands run through `runuser`.
 */
export interface PrivatePostgres {
  url: string;
  port: number;
  /** `pg_ctl stop`; `fast` ends sessions at once, as a restart by an operator does. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** `pg_ctl start`, resolving when the server accepts connections. */
  start(): Promise<void>;
  /** Stops the cluster and deletes its files. */
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = findPostgresBinDir();
  if (!bin) throw new Error("no PostgreSQL server programs: skip with needTool(tools.postgresServer, …)");
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), "licensing-pg-"));
  const data = join(dir, "data");
  if (asRoot) chownSync(dir, Number((await run("id", ["-u", "postgres"])).stdout), 0);
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { cwd: "/" })
      : run(join(bin, tool), args);

  await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c shared_buffers=32MB",
    "-c max_connections=50",
  ].join(" ");
  const start = async () => {
    await pg("pg_ctl", ["start", "-w", "-t", "60", "-D", data, "-l", join(dir, "log"), "-o", options]);
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    await pg("pg_ctl", ["stop", "-w", "-t", "60", "-D", data, "-m", mode]);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop("immediate").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
