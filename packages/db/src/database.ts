import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  /**
   * For writes whose loss in a crash is harmless (heartbeat telemetry): on a server, a second small pool
   * with `synchronous_commit = off`, so those commits do not wait for the WAL flush. Atomicity and
   * consistency are unchanged; only the last fraction of a second of such commits may be lost in a crash.
   * On PGlite, the same database as `db`.
   */
  telemetryDb: Db;
  kind: "embedded" | "postgres";
  /** Applies pending migrations; safe when several instances start together. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Calls `onNotify` for every `NOTIFY channel` committed by any connection (on PGlite: by this process,
   * the only one). On a server it holds one dedicated connection and reconnects when it drops, calling
   * `onNotify` once after each reconnection, since notifications sent meanwhile are lost. Resolves with
   * a function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /** The connection pools' use now (the metrics); none on PGlite, which has one in-process connection. */
  pools(): PoolUse[];
  close(): Promise<void>;
}

export interface PoolUse {
  /** `main` (`db`), `telemetry` (`telemetryDb`) or `replica` (`DATABASE_READ_URL`). */
  pool: string;
  /** Connections open, idle among them, and queries waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

export interface DatabaseOptions {
  /** A postgres:// URL; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Where PGlite persists its files; absent means in memory. */
  dataDir?: string | undefined;
  /** Pool size for the server driver (default 10: a few busy connections beat many waiting ones). */
  maxConnections?: number | undefined;
  /**
   * A read replica (DATABASE_READ_URL): sessions are read-only, a connection is given up after 2 s (its
   * readers then go to the primary), and there is no telemetry pool. Never migrated.
   */
  replica?: boolean | undefined;
  /** An embedded database starts from this dump of a data directory (`dumpDataDir`) instead of initdb. */
  loadDataDir?: Blob | undefined;
}

// Resolved through the package's own name, so it holds when this module is bundled into the server build.
const require = createRequire(import.meta.url);
const migrationsFolder = join(dirname(require.resolve("@licensing/db/package.json")), "migrations");
// Any constant shared by every instance of this service works as the advisory lock key.
const MIGRATION_LOCK_KEY = 4_210_771_001;

export function createDatabase(options: DatabaseOptions = {}): Database {
  return options.url
    ? createPostgres(options.url, options.maxConnections ?? 10, options.replica ?? false)
    : createEmbedded(options.dataDir, options.loadDataDir);
}

const isBegin = (config: unknown) =>
  /^begin\b/i.test(typeof config === "string" ? config : ((config as { text?: string })?.text ?? ""));

/**
 * Drizzle's node-postgres `transaction()` checks a client out and sends BEGIN before its try/finally, so a
 * BEGIN that fails (the database restarting) never returns the client: each such failure would take a
 * slot of the pool for good, and after a restart under load the pool never recovers. This releases the
 * client, as broken, when its BEGIN fails; a later release by the caller is then a no-op.
 */
function releaseWhenBeginFails(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (isBegin(args[0]) && result instanceof Promise) {
      result.catch((err: Error) => {
        const release = client.release;
        client.release = () => {};
        release(err);
      });
    }
    return result;
  }) as typeof client.query;
}

function createPostgres(url: string, max: number, replica: boolean): Database {
  // A bounded wait for a connection: with the database down or unreachable a request fails (503) instead
  // of hanging.
  const connectionTimeoutMillis = replica ? 2_000 : 5_000;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis,
    ...(replica && { options: "-c default_transaction_read_only=on" }),
  });
  // A lost connection must not crash the process. The pool reports (and drops) its idle clients; a client
  // checked out for a transaction reports on itself, and its next query fails (503), so both are ignored here.
  const survive = (p: pg.Pool) => {
    p.on("error", () => {});
    p.on("connect", (client) => {
      client.on("error", () => {});
      releaseWhenBeginFails(client);
    });
  };
  survive(pool);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  if (replica)
    return {
      db,
      telemetryDb: db,
      kind: "postgres",
      migrate: () => Promise.reject(new Error("a read replica is not migrated")),
      ping: async () => void (await db.execute(sql`select 1`)),
      listen: () => Promise.reject(new Error("a read replica has no notifications")),
      pools: () => [
        { pool: "replica", total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
      ],
      close: () => pool.end(),
    };
  const telemetryPool = new pg.Pool({
    connectionString: url,
    max: Math.max(2, Math.ceil(max / 2)),
    connectionTimeoutMillis,
    options: "-c synchronous_commit=off",
  });
  survive(telemetryPool);
  return {
    db,
    telemetryDb: drizzlePg(telemetryPool, { schema }) as unknown as Db,
    kind: "postgres",
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        try {
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    listen: (channel, onNotify) => listenPostgres(url, channel, onNotify),
    pools: () =>
      (
        [
          ["main", pool],
          ["telemetry", telemetryPool],
        ] as const
      ).map(([name, p]) => ({ pool: name, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount })),
    close: async () => {
      await Promise.all([pool.end(), telemetryPool.end()]);
    },
  };
}

/**
 * PGlite's defaults size PostgreSQL for a server (shared_buffers 128 MB, all of it resident in the
 * WebAssembly heap); the embedded database serves one process, where 16 MB holds the hot pages
 * (docs/decisions/0017). Measured in docs/performance.md.
 */
export const embeddedStartParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/**
 * Creates a new data directory and runs the migrations on it in a short-lived child process. initdb
 * runs in a second WebAssembly instance whose memory (about 400 MB) PGlite's process keeps for good, and
 * the first migration grows the server's heap by another 30 MB; in a child both are returned.
 */
function createDataDirInChild(dataDir: string) {
  const script = `
    const { PGlite } = require(${JSON.stringify(require.resolve("@electric-sql/pglite"))});
    const { drizzle } = require(${JSON.stringify(require.resolve("drizzle-orm/pglite"))});
    const { migrate } = require(${JSON.stringify(require.resolve("drizzle-orm/pglite/migrator"))});
    const db = new PGlite(${JSON.stringify(dataDir)});
    migrate(drizzle(db), { migrationsFolder: ${JSON.stringify(migrationsFolder)} })
      .then(() => db.close())
      .catch((err) => { console.error(err); process.exit(1); });`;
  const result = spawnSync(process.execPath, ["-e", script], { stdio: ["ignore", "ignore", "pipe"] });
  if (result.status !== 0)
    throw new Error(`creating the embedded database in ${dataDir} failed: ${result.stderr.toString()}`);
}

function createEmbedded(dataDir: string | undefined, loadDataDir: Blob | undefined): Database {
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    if (!existsSync(join(dataDir, "PG_VERSION"))) createDataDirInChild(dataDir);
  }
  // One options object: PGlite ignores the second argument when the first (dataDir) is undefined.
  const client = new PGlite({ dataDir, startParams: embeddedStartParams, loadDataDir });
  const pglite = drizzlePglite(client, { schema });
  const db = pglite as unknown as Db;
  return {
    db,
    telemetryDb: db,
    kind: "embedded",
    // PGlite allows one process per data directory, so there is no other instance to race.
    migrate: () => migratePglite(pglite, { migrationsFolder }),
    async ping() {
      await db.execute(sql`select 1`);
    },
    async listen(channel, onNotify) {
      const unsubscribe = await client.listen(channel, () => onNotify());
      return async () => {
        if (!client.closed) await unsubscribe();
      };
    },
    pools: () => [],
    close: () => client.close(),
  };
}

const RECONNECT_DELAY_MS = 1_000;

/** LISTEN on a connection of its own (a pooled one would be handed to other queries). */
async function listenPostgres(url: string, channel: string, onNotify: () => void) {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const open = async () => {
    const next = new pg.Client({ connectionString: url });
    const dropped = () => {
      if (client !== next) return;
      client = undefined;
      void next.end().catch(() => {});
      reconnectLater();
    };
    next.on("notification", (message) => {
      if (message.channel === channel) onNotify();
    });
    next.on("error", dropped);
    next.on("end", dropped);
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      dropped();
      throw error;
    }
  };
  const reconnectLater = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      if (!stopped) open().then(onNotify, () => {});
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };
  // A first failure is retried in the background like a later one; meanwhile the caller's poll covers.
  await open().catch(() => {});
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}
