/**
 * What the HTTP benchmarks share: the real app on an ephemeral port over a scratch database on a real
 * PostgreSQL server (created here, dropped by `close`), rate limits out of the way, and small helpers to
 * report progress and latency percentiles.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createServer } from "node:http";
import { createApp } from "@licensing/api";
import { TestClient } from "@licensing/api/testing";
import { bootstrapOperator, createDeps, systemClock, type Deps, type WebhookSettings } from "@licensing/core";
import type { Db } from "@licensing/db";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { sql, type SQL } from "drizzle-orm";
import { pino } from "pino";

export const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432/postgres";
export const OPERATOR = { email: "bench@example.com", password: "bench-password-1" };

export interface BenchApp {
  url: string;
  deps: Deps;
  database: TestDatabase;
  /** A client signed in as the bootstrap operator. */
  operator: TestClient;
  close(): Promise<void>;
}

/**
 * Starts the app on a fresh database of the PostgreSQL server at `serverUrl` (DATABASE_URL, else the local
 * default), or with `embedded` on an in-memory PGlite. Ctrl-C still drops the scratch database.
 */
export async function startBenchApp(
  options: {
    keep?: boolean;
    serverUrl?: string;
    embedded?: boolean;
    webhooks?: Partial<WebhookSettings>;
  } = {},
): Promise<BenchApp> {
  if (options.embedded) delete process.env.TEST_DATABASE_URL;
  else process.env.TEST_DATABASE_URL = options.serverUrl ?? process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
  const database = await createTestDatabase();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deps = createDeps({
    db: database.db,
    clock: systemClock,
    logger: pino({ level: "silent" }),
    publicBaseUrl: url,
    masterKey: randomBytes(32),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  });
  await bootstrapOperator(deps, OPERATOR);
  server.on(
    "request",
    createApp({
      deps,
      ping: () => database.ping(),
      version: "bench",
      rateLimits: { panel: 1e9, auth: 1e9, client: 1e9 },
    }),
  );
  const operator = new TestClient(url);
  await operator.login(OPERATOR.email, OPERATOR.password);

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    if (options.keep) {
      const [kept] = await rows<{ name: string }>(database.db, sql`SELECT current_database() AS name`);
      log(`kept the database ${kept!.name} (drop it when done)`);
      await database.close();
    } else await database.dispose();
  };
  process.once("SIGINT", () => {
    log("\ninterrupted: dropping the scratch database");
    void close().finally(() => process.exit(130));
  });
  return { url, deps, database, operator, close };
}

/** Progress goes to stderr, so stdout holds only the results. */
export const log = (message: string) => process.stderr.write(`${message}\n`);

/** Rewrites the current stderr line (a progress counter); a TTY only, else one line per call. */
export function progress(message: string) {
  if (process.stderr.isTTY) process.stderr.write(`\r${message}\x1b[K`);
  else log(message);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

/** Throws with the response text unless the status is the expected one. */
export function expectStatus(res: { status: number; text: string }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: HTTP ${res.status} ${res.text.slice(0, 500)}`);
}

export const formatInt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Seconds since `since` (a performance.now() reading), to one decimal. */
export const secondsSince = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/** The rows of a raw query (node-postgres and PGlite both answer `{ rows }`). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
