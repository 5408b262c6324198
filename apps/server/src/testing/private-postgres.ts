import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
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

export interface PrivatePostgresOptions {
  /** More server settings, e.g. `-c shared_preload_libraries=pg_stat_statements`. */
  settings?: string[];
}

export async function startPrivatePostgres(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
  return startCluster(options, async (pg, data) => {
    await pg("initdb", [
      "-D",
      data,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
  });
}

/**
 * A streaming standby of `primary` (a private cluster: initdb lets 127.0.0.1 replicate), made with
 * `pg_basebackup -R -X stream` into a temporary directory and started on a port of its own.
 */
export async function startPrivateStandby(
  primary: PrivatePostgres,
  options: PrivatePostgresOptions = {},
): Promise<PrivatePostgres> {
  return startCluster(options, async (pg, data) => {
    await pg("pg_basebackup", [
      ...["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres"],
      ...["-D", data, "-R", "-X", "stream", "--no-sync"],
    ]);
  });
}

type PgTool = (tool: string, args: string[]) => Promise<unknown>;

async function startCluster(
  settings: PrivatePostgresOptions,
  create: (pg: PgTool, data: string) => Promise<void>,
): Promise<PrivatePostgres> {
  const onPath = findPostgresBinDir();
  if (!onPath) throw new Error("no PostgreSQL server programs: skip with needTool(tools.postgresServer, …)");
  // PATH may hold links to a few of them (initdb, pg_ctl); the others (pg_basebackup) sit beside the real ones.
  const bin = dirname(realpathSync(join(onPath, "initdb")));
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), "licensing-pg-"));
  const data = join(dir, "data");
  if (asRoot) chownSync(dir, Number((await run("id", ["-u", "postgres"])).stdout), 0);
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { cwd: "/" })
      : run(join(bin, tool), args);

  try {
    await create(pg, data);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c shared_buffers=32MB",
    "-c max_connections=50",
    ...(settings.settings ?? []),
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
