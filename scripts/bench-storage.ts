/**
 * Storage benchmark (issue 25 §5, the inputs of docs/scaling.md): in a scratch database on a real
 * PostgreSQL it measures what each thing the service stores costs on disk, table and indexes apart, and the
 * WAL each hot-path write produces:
 *
 * - licenses and activations: the license-search and analytics data sets (`INSERT … SELECT`, the same rows
 *   bench:search and bench:analytics load), bytes per row of the table and of each index;
 * - heartbeat records: `--heartbeats` beats through the real write path (`HeartbeatWriter` on the telemetry
 *   pool, `synchronous_commit = off`, batched as under load), bytes per record of the partition and its
 *   indexes, and WAL bytes per heartbeat;
 * - leases: `--leases` live leases on floating licenses, renewed through `LeaseRenewer` (the main pool,
 *   committed synchronously): bytes per lease row and WAL bytes per renewal;
 * - usage rollups: `--days` days of heartbeats over the data set, rolled up by the real job (`rollupUsage`),
 *   bytes per `usage_daily` row and per day.
 *
 * Sizes do not depend on the machine's load. WAL is read as the server-wide `pg_current_wal_lsn()`
 * difference around a batch, so other sessions' writes on the same server can only add to it: the batch is
 * repeated and the smallest figure kept. Run `npx tsx scripts/bench-storage.ts --help` for the options.
 */
import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import { analytics, createDeps, systemClock, type Deps } from "@licensing/core";
import type { Db } from "@licensing/db";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { DEFAULT_SERVER_URL, formatInt, log, rows, secondsSince, startBenchApp } from "./lib/bench-app.ts";
import { createHeartbeatPartitions, insertActivations, insertHeartbeats } from "./lib/analytics-dataset.ts";
import { loadLicenseDataset } from "./lib/search-dataset.ts";

const HELP = `Usage: npx tsx scripts/bench-storage.ts [options]

Measures bytes per license, activation, heartbeat record, lease and usage rollup row (table and indexes),
and WAL bytes per heartbeat and per lease renewal, in a scratch database on a real PostgreSQL.

Options:
  --licenses <n>     licenses to generate (default 100000)
  --heartbeats <n>   heartbeats through the real write path (default 100000)
  --leases <n>       live leases renewed through the real renewal path (default 2000)
  --batch <n>        beats or renewals submitted at once, the natural batch under load (default 200)
  --wal-runs <n>     WAL measurements per path; the smallest is kept (default 3)
  --days <n>         days of heartbeats to roll up (default 30)
  --after-checkpoint also the WAL per heartbeat of one pass over every live activation right after a
                     CHECKPOINT (full-page images; issues a server-wide CHECKPOINT)
  -h, --help         this text

Environment:
  DATABASE_URL       PostgreSQL server to use (default ${DEFAULT_SERVER_URL}); a fresh database is
                     created on it and dropped at the end.`;

const { values: args } = parseArgs({
  options: {
    licenses: { type: "string", default: "100000" },
    heartbeats: { type: "string", default: "100000" },
    leases: { type: "string", default: "2000" },
    batch: { type: "string", default: "200" },
    "wal-runs": { type: "string", default: "3" },
    days: { type: "string", default: "30" },
    "after-checkpoint": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const LICENSES = Number(args.licenses);
const HEARTBEATS = Number(args.heartbeats);
const LEASES = Number(args.leases);
const BATCH = Number(args.batch);
const WAL_RUNS = Number(args["wal-runs"]);
const DAYS = Number(args.days);
const AFTER_CHECKPOINT = args["after-checkpoint"];

interface Size {
  table: number;
  indexes: Array<{ name: string; bytes: number }>;
}

/** The table itself, or its partitions when it is partitioned. */
const leavesOf = (table: string) =>
  sql`SELECT c.oid AS relid FROM pg_class c WHERE c.oid = ${table}::regclass AND c.relkind = 'r'
      UNION ALL
      SELECT relid FROM pg_partition_tree(${table}::regclass) WHERE isleaf AND relid <> ${table}::regclass`;

/** Heap (with TOAST and maps) and each index of a table, summed over its partitions when partitioned. */
async function sizeOf(db: Db, table: string): Promise<Size> {
  const [heap] = await rows<{ bytes: string }>(
    db,
    sql`SELECT coalesce(sum(pg_table_size(relid)), 0)::bigint AS bytes FROM (${leavesOf(table)}) t`,
  );
  const indexes = await rows<{ name: string; bytes: string }>(
    db,
    sql`SELECT coalesce(pi.relname, i.indexrelid::regclass::text) AS name,
               sum(pg_relation_size(i.indexrelid))::bigint AS bytes
          FROM (${leavesOf(table)}) t
          JOIN pg_index i ON i.indrelid = t.relid
          LEFT JOIN pg_inherits h ON h.inhrelid = i.indexrelid
          LEFT JOIN pg_class pi ON pi.oid = h.inhparent
         GROUP BY 1 ORDER BY 1`,
  );
  return {
    table: Number(heap!.bytes),
    indexes: indexes.map((i) => ({ name: i.name, bytes: Number(i.bytes) })),
  };
}

async function count(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rows<{ n: number }>(db, query);
  return Number(row!.n);
}

async function walLsn(db: Db): Promise<string> {
  const [row] = await rows<{ lsn: string }>(db, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
  return row!.lsn;
}

async function walSince(db: Db, lsn: string): Promise<number> {
  const [row] = await rows<{ bytes: string }>(
    db,
    sql`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ${lsn}::pg_lsn)::bigint AS bytes`,
  );
  return Number(row!.bytes);
}

/** `items` submitted `batch` at a time (each group at once, as concurrent requests are). */
async function inGroups<T>(items: T[], batch: number, submit: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += batch) {
    await Promise.all(items.slice(i, i + batch).map(submit));
  }
}

/** The smallest WAL figure over `WAL_RUNS` runs of `run`, in bytes per operation. */
async function walPer(db: Db, operations: number, run: () => Promise<void>) {
  const figures: number[] = [];
  for (let i = 0; i < WAL_RUNS; i++) {
    const before = await walLsn(db);
    await run();
    figures.push((await walSince(db, before)) / operations);
  }
  return Math.min(...figures);
}

const report: Array<{ what: string; rows: number; size: Size }> = [];
const figures: Array<[string, string]> = [];

const app = await startBenchApp();
let deps: Deps | undefined;
try {
  const { db } = app.database;
  // Deps as the server builds them: heartbeats on the telemetry pool (synchronous_commit = off).
  deps = createDeps({
    db,
    telemetryDb: app.database.telemetryDb,
    clock: systemClock,
    logger: pino({ level: "silent" }),
    publicBaseUrl: app.url,
    masterKey: randomBytes(32),
  });
  await loadLicenseDataset(app, LICENSES);
  log("  activations…");
  const activations = await insertActivations(db);
  log(`  ${formatInt(activations.total)} activations (${formatInt(activations.live)} live)`);
  await db.execute(sql`VACUUM ANALYZE licenses`);
  await db.execute(sql`VACUUM ANALYZE activations`);
  report.push({
    what: "licenses",
    rows: await count(db, sql`SELECT count(*)::int AS n FROM licenses`),
    size: await sizeOf(db, "licenses"),
  });
  report.push({ what: "activations", rows: activations.total, size: await sizeOf(db, "activations") });

  // Heartbeats through the real write path, on live activations, round-robin.
  const live = await rows<{ id: string; key: string }>(
    db,
    sql`SELECT a.id, l.license_key AS key FROM activations a JOIN licenses l ON l.id = a.license_id
         WHERE a.status = 'active' AND l.status = 'Active'
           AND (l.expires_at IS NULL OR l.expires_at > now() + interval '2 days')
         ORDER BY a.id`,
  );
  await createHeartbeatPartitions(db, 0);
  const writer = deps.activations.heartbeats;
  const beats = Array.from({ length: HEARTBEATS }, (_, i) => live[i % live.length]!);
  log(`heartbeats: ${formatInt(HEARTBEATS)} through HeartbeatWriter, ${BATCH} at a time…`);
  let started = performance.now();
  await inGroups(beats, BATCH, async (beat) => {
    if (!(await writer.beat(beat.id, beat.key))) throw new Error("a heartbeat matched no live activation");
  });
  log(`  ${secondsSince(started)} s`);
  const written = await count(db, sql`SELECT count(*)::int AS n FROM heartbeat_records`);
  report.push({ what: "heartbeat_records", rows: written, size: await sizeOf(db, "heartbeat_records") });
  // WAL of a batch of heartbeats (activations already touched since the last checkpoint, as in a steady
  // stream: their pages' full-page images are already in the WAL).
  const walBatch = Math.min(live.length, 10 * BATCH);
  const walHeartbeat = await walPer(db, walBatch, () =>
    inGroups(live.slice(0, walBatch), BATCH, (beat) => writer.beat(beat.id, beat.key)),
  );
  figures.push([
    "WAL bytes per heartbeat (telemetry pool, batches of " + BATCH + ")",
    walHeartbeat.toFixed(0),
  ]);
  if (AFTER_CHECKPOINT) {
    // One beat of every live activation right after a CHECKPOINT: each page's first change since then
    // writes a full-page image (as after every checkpoint in production). Server-wide, so other sessions'
    // writes in that second count too; one run, not the smallest of several.
    await db.execute(sql`CHECKPOINT`);
    const before = await walLsn(db);
    await inGroups(live, BATCH, (beat) => writer.beat(beat.id, beat.key));
    const bytes = (await walSince(db, before)) / live.length;
    figures.push([
      `WAL bytes per heartbeat, first pass after a CHECKPOINT (${formatInt(live.length)} activations)`,
      bytes.toFixed(0),
    ]);
  }

  // Leases: live leases on floating licenses (one per license's first live activation), then renewals.
  log(`leases: ${formatInt(LEASES)} live, renewed through LeaseRenewer…`);
  await db.execute(sql`
    CREATE TEMP TABLE bench_pools AS
    SELECT DISTINCT ON (a.license_id) a.license_id, a.id AS activation_id, a.company_id, a.template_id
      FROM activations a JOIN licenses l ON l.id = a.license_id
     WHERE a.status = 'active' AND l.status = 'Active' AND (l.expires_at IS NULL OR l.expires_at > now() + interval '2 days')
     ORDER BY a.license_id, a.id LIMIT ${LEASES}`);
  await db.execute(sql`
    UPDATE licenses l SET seat_model = 'floating',
           config = (l.config::jsonb || jsonb_build_object('limits',
                      coalesce(l.config::jsonb -> 'limits', '{}'::jsonb) || jsonb_build_object('maxSeats', 3)))::text
      FROM bench_pools p WHERE p.license_id = l.id`);
  const leases = await rows<{ id: string; key: string }>(
    db,
    sql`INSERT INTO leases (id, license_id, activation_id, company_id, template_id, acquired_at, expires_at)
        SELECT gen_random_uuid(), p.license_id, p.activation_id, p.company_id, p.template_id, now(),
               now() + interval '1 hour'
          FROM bench_pools p
        RETURNING id, (SELECT license_key FROM licenses WHERE id = license_id) AS key`,
  );
  await db.execute(sql`VACUUM ANALYZE leases`);
  report.push({ what: "leases", rows: leases.length, size: await sizeOf(db, "leases") });
  const renewer = deps.leases.renewals;
  started = performance.now();
  const walRenewal = await walPer(db, leases.length, () =>
    inGroups(leases, BATCH, async (lease) => {
      if (!(await renewer.renew(lease.id, lease.key))) throw new Error("a renewal matched no live lease");
    }),
  );
  log(`  ${secondsSince(started)} s`);
  figures.push(["WAL bytes per lease renewal (main pool, batches of " + BATCH + ")", walRenewal.toFixed(0)]);

  // Usage rollups: heartbeats over the last DAYS days (SQL, as bench:analytics loads them), then the job.
  log(`usage rollup over ${DAYS} days of heartbeats…`);
  started = performance.now();
  await createHeartbeatPartitions(db, Math.ceil(DAYS / 28) + 1);
  await insertHeartbeats(db, { count: 20 * DAYS * 144, days: DAYS, chunks: 4, onChunk: () => {} });
  await db.execute(
    sql`UPDATE usage_rollup_state SET rolled_through = (now() - ${DAYS + 1} * interval '1 day')::date`,
  );
  const days = await analytics.rollupUsage(deps);
  await db.execute(sql`VACUUM ANALYZE usage_daily`);
  log(`  ${days} days in ${secondsSince(started)} s`);
  const rollupRows = await count(db, sql`SELECT count(*)::int AS n FROM usage_daily`);
  report.push({ what: "usage_daily", rows: rollupRows, size: await sizeOf(db, "usage_daily") });
  figures.push(["usage_daily rows per day (companies with activity)", (rollupRows / days).toFixed(1)]);
} finally {
  await app.close();
}

const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
console.log(`\nbench:storage ${new Date().toISOString().slice(0, 10)} (server ${new URL(serverUrl).host})`);
console.log(
  `licenses ${formatInt(LICENSES)}, heartbeats ${formatInt(HEARTBEATS)} (real path), leases ${formatInt(LEASES)}\n`,
);
const pad = (s: string, n: number) => s.padEnd(n);
const num = (n: number) => formatInt(n).padStart(13);
const per = (bytes: number, n: number) => (n ? (bytes / n).toFixed(1) : "-").padStart(10);
console.log(
  `${pad("relation", 48)}${"rows".padStart(13)}${"bytes".padStart(13)}${"B/row".padStart(10)}${"MB/1M rows".padStart(12)}`,
);
for (const { what, rows: n, size } of report) {
  const indexBytes = size.indexes.reduce((sum, i) => sum + i.bytes, 0);
  const line = (name: string, bytes: number) =>
    console.log(
      `${pad(name, 48)}${num(n)}${num(bytes)}${per(bytes, n)}${(((bytes / n) * 1e6) / 1048576).toFixed(1).padStart(12)}`,
    );
  line(`${what} (table)`, size.table);
  for (const index of size.indexes) line(`  ${index.name}`, index.bytes);
  line(`${what} (table + indexes)`, size.table + indexBytes);
}
console.log("");
for (const [what, value] of figures) console.log(`${pad(what, 70)}${value.padStart(10)}`);
