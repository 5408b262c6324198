/**
 * Analytics benchmark: loads 1,000,000 licenses, their activations and 10,000,000 heartbeat records
 * (a year, monthly partitions) into a scratch database on a real PostgreSQL, runs the usage rollup job, then
 * times GET /api/v1/panel/analytics/usage and /distribution over HTTP through the real app, for the whole
 * platform and for one company. It also measures what keeping the rollups current on the heartbeat write
 * path would cost (decision 0028). It also loads 1,000,000 lease spans of floating licenses over the year,
 * runs the lease rollup and times /concurrency the same way (issue 23). Run `npx tsx scripts/bench-analytics.ts --help` for the options.
 */
import { parseArgs } from "node:util";
import { analytics } from "@licensing/core";
import { sql } from "drizzle-orm";
import type { TestClient } from "@licensing/api/testing";
import {
  DEFAULT_SERVER_URL,
  expectStatus,
  formatInt,
  log,
  percentile,
  progress,
  rows,
  secondsSince,
  startBenchApp,
} from "./lib/bench-app.ts";
import {
  createHeartbeatPartitions,
  insertActivations,
  insertHeartbeats,
  insertLeases,
} from "./lib/analytics-dataset.ts";
import { licenseCounts, loadLicenseDataset } from "./lib/search-dataset.ts";
import { measureWritePath } from "./lib/rollup-write-probe.ts";

const HELP = `Usage: npx tsx scripts/bench-analytics.ts [options]

Loads licenses, activations and heartbeat records into a scratch database, rolls usage up, then times
GET /api/v1/panel/analytics/usage, /distribution and /concurrency (platform-wide and for one company).

Options:
  --licenses <n>     licenses to generate (default 1000000)
  --heartbeats <n>   heartbeat records to generate, over the last 365 days (default 10000000)
  --leases <n>       lease spans of floating licenses to generate, over the last 365 days (default 1000000)
  --pools <n>        floating licenses they are spread over, 3 seats each (default 2000)
  --requests <n>     timed requests per case, one at a time (default 20)
  --warmup <n>       untimed requests per case first (default 2)
  --probe <n>        heartbeat batches per variant in the write-path probe (default 300; 0 skips it)
  --keep             keep the database afterwards (its name is printed), e.g. to EXPLAIN queries
  --target <ms>      the p95 every case should stay under (default 1000); exit code 1 when one misses
  -h, --help         this text

Environment:
  DATABASE_URL       PostgreSQL server to use (default ${DEFAULT_SERVER_URL}); a fresh database is
                     created on it and dropped at the end, Ctrl-C included.`;

const { values: args } = parseArgs({
  options: {
    licenses: { type: "string", default: "1000000" },
    heartbeats: { type: "string", default: "10000000" },
    leases: { type: "string", default: "1000000" },
    pools: { type: "string", default: "2000" },
    requests: { type: "string", default: "20" },
    warmup: { type: "string", default: "2" },
    probe: { type: "string", default: "300" },
    keep: { type: "boolean", default: false },
    target: { type: "string", default: "1000" },
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
const POOLS = Number(args.pools);
const REQUESTS = Number(args.requests);
const WARMUP = Number(args.warmup);
const PROBE = Number(args.probe);
const TARGET_MS = Number(args.target);

const app = await startBenchApp({ keep: args.keep });
let failed = false;
try {
  const { db } = app.database;
  const { companies, templates } = await loadLicenseDataset(app, LICENSES);
  log("  activations…");
  let started = performance.now();
  const activations = await insertActivations(db);
  log(
    `  ${formatInt(activations.total)} activations (${formatInt(activations.live)} live) in ${secondsSince(started)} s`,
  );
  started = performance.now();
  await createHeartbeatPartitions(db, 13);
  await insertHeartbeats(db, {
    count: HEARTBEATS,
    days: 365,
    chunks: 20,
    onChunk: (done) =>
      progress(
        `  heartbeat records: ${formatInt(done)} / ${formatInt(HEARTBEATS)} (${secondsSince(started)} s)`,
      ),
  });
  log(`\n  heartbeat records written in ${secondsSince(started)} s`);
  started = performance.now();
  const pools = await insertLeases(db, {
    count: LEASES,
    days: 365,
    pools: POOLS,
    maxSeats: 3,
    chunks: 20,
    onChunk: (done) =>
      progress(`  lease spans: ${formatInt(done)} / ${formatInt(LEASES)} (${secondsSince(started)} s)`),
  });
  log(
    `\n  lease spans on ${formatInt(pools)} floating licenses written in ${secondsSince(started)} s; VACUUM ANALYZE…`,
  );
  started = performance.now();
  // What autovacuum does after a bulk load: planner statistics and the visibility map.
  await db.execute(sql`VACUUM ANALYZE`);
  log(`  ${secondsSince(started)} s`);

  // The company cases: the root whose subtree holds the most licenses, and the largest single company.
  const count = await licenseCounts(db, companies);
  const root = companies
    .filter((c) => c.depth === 0)
    .sort((a, b) => count.inSubtree(b) - count.inSubtree(a))[0]!;
  const single = [...companies].sort((a, b) => count.of(b) - count.of(a))[0]!;
  const [partitionCount] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'heartbeat_records'::regclass`,
  );

  const cases: Array<[name: string, path: string]> = [];
  const scopes: Array<[string, string]> = [
    ["platform", ""],
    [
      `root "${root.name}" (${formatInt(count.inSubtree(root))} licenses in its subtree)`,
      `companyId=${root.id}`,
    ],
    [`company "${single.name}" (${formatInt(count.of(single))} licenses)`, `companyId=${single.id}`],
  ];
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString();
  for (const [scope, query] of scopes) {
    cases.push([`usage, 30 days (default), ${scope}`, `/api/v1/panel/analytics/usage?${query}`]);
    cases.push([`usage, 366 days, ${scope}`, `/api/v1/panel/analytics/usage?from=${yearAgo}&${query}`]);
    cases.push([`distribution, ${scope}`, `/api/v1/panel/analytics/distribution?${query}`]);
  }
  const concurrencyFirst = cases.length;
  for (const [scope, query] of scopes) {
    cases.push([`concurrency, 30 days (default), ${scope}`, `/api/v1/panel/analytics/concurrency?${query}`]);
    cases.push([
      `concurrency, 366 days, ${scope}`,
      `/api/v1/panel/analytics/concurrency?from=${yearAgo}&${query}`,
    ]);
  }
  cases.push([
    `concurrency, 366 days, template "${templates[0]!.name}"`,
    `/api/v1/panel/analytics/concurrency?from=${yearAgo}&templateId=${templates[0]!.id}`,
  ]);

  const time = async (client: TestClient, name: string, path: string, requests: number, warmup: number) => {
    const first = await client.get(path);
    expectStatus(first, 200, name);
    for (let i = 1; i < warmup; i++) await client.get(path);
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      expectStatus(await client.get(path), 200, name);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return {
      case: name,
      p50: Number(percentile(times, 50).toFixed(0)),
      p95: Number(percentile(times, 95).toFixed(0)),
      max: Number(times.at(-1)!.toFixed(0)),
    };
  };

  // Before the first rollup, usage reads only raw rows: what the rollups save.
  log("\nusage from raw rows only (before the first rollup)…");
  const raw = [
    await time(app.operator, "usage, 366 days, platform, raw rows only", cases[1]![1], 1, 0),
    await time(app.operator, `usage, 366 days, ${scopes[1]![0]}, raw rows only`, cases[4]![1], 1, 0),
  ];
  raw.push(
    await time(
      app.operator,
      "concurrency, 366 days, platform, spans only",
      cases[concurrencyFirst + 1]![1],
      1,
      0,
    ),
    await time(
      app.operator,
      `concurrency, 366 days, ${scopes[1]![0]}, spans only`,
      cases[concurrencyFirst + 3]![1],
      1,
      0,
    ),
  );
  started = performance.now();
  const rolledLeaseDays = await analytics.rollupLeases(app.deps);
  const leaseRollupSeconds = secondsSince(started);
  const [leaseRollupRows] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM lease_concurrency_daily`,
  );
  log(
    `lease rollup job, first run: ${formatInt(rolledLeaseDays)} days, ${formatInt(leaseRollupRows!.n)} rows in ${leaseRollupSeconds} s`,
  );
  await db.execute(sql`VACUUM ANALYZE lease_concurrency_daily`);
  started = performance.now();
  await analytics.rollupLeases(app.deps);
  log(`lease rollup job, next run in ${secondsSince(started)} s`);
  started = performance.now();
  const rolledDays = await analytics.rollupUsage(app.deps);
  const rollupSeconds = secondsSince(started);
  const [rollupRows] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM usage_daily`);
  log(
    `rollup job, first run: ${formatInt(rolledDays)} days, ${formatInt(rollupRows!.n)} rows in ${rollupSeconds} s`,
  );
  await db.execute(sql`VACUUM ANALYZE usage_daily`);
  started = performance.now();
  const nextDay = await analytics.rollupUsage(app.deps);
  log(`rollup job, next run: ${nextDay} days in ${secondsSince(started)} s`);

  const results = [];
  for (const [index, [name, path]] of cases.entries()) {
    progress(`[${index + 1}/${cases.length}] ${name}`);
    results.push(await time(app.operator, name, path, REQUESTS, WARMUP));
  }
  if (process.stderr.isTTY) log("");
  // The operator console over the same data, for information (the issue's target is analytics').
  const consoleCases: Array<[string, string]> = [
    ["operator overview", "/api/v1/panel/operator/overview"],
    ["operator tenants", "/api/v1/panel/operator/tenants"],
    ["operator licenses, no filter", "/api/v1/panel/operator/licenses"],
    [
      "operator licenses, trial=true&status=Active",
      "/api/v1/panel/operator/licenses?trial=true&status=Active",
    ],
  ];
  const consoleResults = [];
  for (const [name, path] of consoleCases) {
    progress(name);
    consoleResults.push(await time(app.operator, name, path, REQUESTS, WARMUP));
  }
  if (process.stderr.isTTY) log("");

  const probe =
    PROBE > 0
      ? await measureWritePath(app.database.telemetryDb, { batches: PROBE, batchSize: 50 })
      : undefined;

  console.log(
    `\n${formatInt(LICENSES)} licenses, ${formatInt(activations.total)} activations (${formatInt(activations.live)} live), ` +
      `${formatInt(HEARTBEATS)} heartbeat records over 365 days in ${partitionCount!.n} partitions, ` +
      `${companies.length} companies, ${templates.length} templates, ` +
      `${formatInt(LEASES)} lease spans on ${formatInt(pools)} floating licenses (3 seats each)`,
  );
  console.log(
    `Lease rollup job, first run: ${formatInt(rolledLeaseDays)} days → ${formatInt(leaseRollupRows!.n)} rows in ${leaseRollupSeconds} s`,
  );
  console.log(
    `Rollup job, first run: ${formatInt(rolledDays)} days → ${formatInt(rollupRows!.n)} rows in ${rollupSeconds} s\n`,
  );
  console.log(`| Case (${REQUESTS} requests over HTTP, one at a time) | p50 ms | p95 ms | max ms |`);
  console.log("| --- | ---: | ---: | ---: |");
  for (const r of [...results, ...raw, ...consoleResults]) {
    const miss = results.includes(r) && r.p95 >= TARGET_MS ? " ⚠" : "";
    console.log(`| ${r.case} | ${r.p50} | ${r.p95}${miss} | ${r.max} |`);
  }
  if (probe) {
    console.log(`\nWrite-path probe: ${PROBE} batches of 50 heartbeat inserts per run (ms per batch)`);
    console.log("| Variant | 1 writer p50 | 1 writer p95 | 2 writers p50 | 2 writers p95 |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const v of probe)
      console.log(`| ${v.variant} | ${v.one.p50} | ${v.one.p95} | ${v.two.p50} | ${v.two.p95} |`);
  }
  const misses = results.filter((r) => r.p95 >= TARGET_MS);
  failed = misses.length > 0;
  console.log(
    misses.length
      ? `\n${misses.length} case(s) at or over p95 ${TARGET_MS} ms`
      : `\nEvery case p95 < ${TARGET_MS} ms`,
  );
} finally {
  await app.close();
}
process.exitCode = failed ? 1 : 0;
