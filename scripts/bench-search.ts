import type { LicensePage } from "@licensing/contracts";
/**
 * License search benchmark: loads a large license table into a scratch database on a real PostgreSQL
 * (INSERT … SELECT generate_series, then ANALYZE), then times GET /api/v1/panel/licenses over HTTP through
 * the real app, as the operator and as a company Admin, for each filter, and prints p50/p95/p99 per case.
 * Run `npx tsx scripts/bench-search.ts --help` for the options.
 */
import { parseArgs } from "node:util";
import { TestClient } from "@licensing/api/testing";
import { hashPassword } from "@licensing/core";
import { tables } from "@licensing/db";
import { sql } from "drizzle-orm";
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
  type BenchApp,
} from "./lib/bench-app.ts";
import { licenseCounts, loadLicenseDataset } from "./lib/search-dataset.ts";

const HELP = `Usage: npx tsx scripts/bench-search.ts [options]

Loads licenses into a scratch database, then times GET /api/v1/panel/licenses per filter case.

Options:
  --licenses <n>   licenses to generate (default 1000000)
  --requests <n>   timed requests per case, one at a time (default 200)
  --warmup <n>     untimed requests per case first (default 10)
  --only <text>    run only the cases whose name contains <text>
  --keep           keep the database afterwards (its name is printed), e.g. to EXPLAIN queries
  --target <ms>    p95 every case should stay under (default 50); exit code 1 when one misses
  -h, --help       this text

Environment:
  DATABASE_URL     PostgreSQL server to use (default ${DEFAULT_SERVER_URL}); a fresh database is
                   created on it and dropped at the end, Ctrl-C included.`;

const { values: args } = parseArgs({
  options: {
    licenses: { type: "string", default: "1000000" },
    requests: { type: "string", default: "200" },
    warmup: { type: "string", default: "10" },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
    target: { type: "string", default: "50" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const LICENSES = Number(args.licenses);
const REQUESTS = Number(args.requests);
const WARMUP = Number(args.warmup);
const TARGET_MS = Number(args.target);

const app = await startBenchApp({ keep: args.keep });
let failed = false;
try {
  const { db } = app.database;
  const { companies, templates } = await loadLicenseDataset(app, LICENSES);
  log("  VACUUM ANALYZE…");
  const started = performance.now();
  // What autovacuum does after a bulk load: statistics for the planner (without them it guesses blindly)
  // and the visibility map that lets index-only scans skip the heap.
  await db.execute(sql`VACUUM ANALYZE licenses`);
  await db.execute(sql`ANALYZE`);
  log(`  analysed in ${secondsSince(started)} s`);

  // Facts about the data the cases are built from.
  const count = await licenseCounts(db, companies);
  const byCount = [...companies].sort((a, b) => count.of(b) - count.of(a));
  const bigCompany = byCount[0]!;
  const smallCompany = byCount.at(-1)!;
  // The Admin's subtree: a division (a root's child, 6 teams under it), not the largest one.
  const divisions = companies.filter((c) => c.depth === 1);
  const division = [...divisions].sort((a, b) => count.inSubtree(b) - count.inSubtree(a))[3]!;
  const inDivision = companies.filter((c) => c.path.startsWith(division.path) && c.id !== division.id);
  const divisionTeam = inDivision[0]!;
  const [sample] = await rows<{ license_key: string }>(
    db,
    sql`SELECT license_key FROM licenses WHERE company_id = ${divisionTeam.id} ORDER BY issued_at DESC LIMIT 1`,
  );
  const fullKey = sample!.license_key;
  const [topTemplate, rareTemplate] = [templates[0]!, templates.at(-1)!];

  const admin = await signInAdmin(app, division.id);
  log(
    `big company "${bigCompany.name}" ${formatInt(count.of(bigCompany))} licenses, small "${smallCompany.name}" ` +
      `${formatInt(count.of(smallCompany))}; Admin of "${division.name}" sees ${formatInt(count.inSubtree(division))}`,
  );

  const deep = "page=200"; // offset 9,950 at the default 50 per page
  /** `query` with `after=` the cursor where page `page` starts: the page before's `nextCursor`. */
  const cursorAt = async (client: TestClient, query: string, page: number) => {
    const before = await client.get<LicensePage>(
      `/api/v1/panel/licenses?${query}${query ? "&" : ""}page=${page - 1}`,
    );
    expectStatus(before, 200, `cursor for ${query} page ${page}`);
    return `${query}${query ? "&" : ""}after=${before.body.nextCursor!}`;
  };
  const teamWord = divisionTeam.name.split(" ").at(-1)!; // e.g. "East": six companies under every division
  const cases: Array<[name: string, client: TestClient, query: string]> = [
    ["operator: no filter", app.operator, ""],
    ["operator: no filter, deep page", app.operator, deep],
    ["operator: no filter, deep cursor", app.operator, await cursorAt(app.operator, "", 200)],
    ["operator: no filter, pageSize=200", app.operator, "pageSize=200"],
    ["operator: companyId (largest)", app.operator, `companyId=${bigCompany.id}`],
    ["operator: companyId (largest), deep page", app.operator, `companyId=${bigCompany.id}&${deep}`],
    [
      "operator: companyId (largest), deep cursor",
      app.operator,
      await cursorAt(app.operator, `companyId=${bigCompany.id}`, 200),
    ],
    ["operator: companyId (smallest)", app.operator, `companyId=${smallCompany.id}`],
    ["operator: templateId (best seller)", app.operator, `templateId=${topTemplate.id}`],
    ["operator: templateId (rare)", app.operator, `templateId=${rareTemplate.id}`],
    ["operator: templateId (rare), deep page", app.operator, `templateId=${rareTemplate.id}&${deep}`],
    [
      "operator: templateId (rare), deep cursor",
      app.operator,
      await cursorAt(app.operator, `templateId=${rareTemplate.id}`, 200),
    ],
    ["operator: status=Active", app.operator, "status=Active"],
    ["operator: status=Suspended", app.operator, "status=Suspended"],
    ["operator: status=Revoked", app.operator, "status=Revoked"],
    ["operator: status=Expired", app.operator, "status=Expired"],
    ["operator: status=Expired, deep page", app.operator, `status=Expired&${deep}`],
    [
      "operator: status=Expired, deep cursor",
      app.operator,
      await cursorAt(app.operator, "status=Expired", 200),
    ],
    ["operator: search full key", app.operator, `search=${fullKey}`],
    ["operator: search key prefix (8 chars)", app.operator, `search=${fullKey.slice(0, 8).toLowerCase()}`],
    ["operator: search key prefix (5 chars)", app.operator, `search=${fullKey.slice(0, 5)}`],
    ["operator: search company name (one)", app.operator, `search=${encodeURIComponent(bigCompany.name)}`],
    ["operator: search company name (many)", app.operator, `search=${teamWord}`],
    ["operator: search no match", app.operator, "search=nothing-matches-this"],
    ["operator: companyId + status=Suspended", app.operator, `companyId=${bigCompany.id}&status=Suspended`],
    ["operator: templateId + status=Revoked", app.operator, `templateId=${topTemplate.id}&status=Revoked`],
    [
      "operator: companyId + templateId + status",
      app.operator,
      `companyId=${bigCompany.id}&templateId=${rareTemplate.id}&status=Active`,
    ],
    ["operator: search name (many) + status=Suspended", app.operator, `search=${teamWord}&status=Suspended`],
    ["admin: no filter", admin, ""],
    ["admin: no filter, deep page", admin, deep],
    ["admin: no filter, deep cursor", admin, await cursorAt(admin, "", 200)],
    ["admin: companyId (team)", admin, `companyId=${divisionTeam.id}`],
    ["admin: templateId (rare)", admin, `templateId=${rareTemplate.id}`],
    ["admin: status=Suspended", admin, "status=Suspended"],
    ["admin: status=Expired, deep page", admin, `status=Expired&page=20`],
    ["admin: status=Expired, deep cursor", admin, await cursorAt(admin, "status=Expired", 20)],
    ["admin: search full key", admin, `search=${fullKey}`],
    ["admin: search key prefix (5 chars)", admin, `search=${fullKey.slice(0, 5)}`],
    ["admin: search company name", admin, `search=${encodeURIComponent(divisionTeam.name)}`],
    ["admin: search company name (many)", admin, `search=${teamWord}`],
    ["admin: templateId + status=Revoked", admin, `templateId=${topTemplate.id}&status=Revoked`],
  ];

  const selected = cases.filter(([name]) => !args.only || name.includes(args.only));
  log(`\n${selected.length} cases × ${REQUESTS} requests (after ${WARMUP} warm-up), one at a time`);
  const results = [];
  for (const [index, [name, client, query]] of selected.entries()) {
    const path = `/api/v1/panel/licenses${query ? `?${query}` : ""}`;
    const first = await client.get<LicensePage>(path);
    expectStatus(first, 200, name);
    for (let i = 1; i < WARMUP; i++) await client.get(path);
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      const res = await client.get(path);
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
      if (i % 20 === 0) progress(`[${index + 1}/${selected.length}] ${name}: ${i}/${REQUESTS}`);
    }
    times.sort((a, b) => a - b);
    const row = {
      case: name,
      total: first.body.total,
      items: first.body.items.length,
      p50: Number(percentile(times, 50).toFixed(1)),
      p95: Number(percentile(times, 95).toFixed(1)),
      p99: Number(percentile(times, 99).toFixed(1)),
    };
    results.push(row);
    progress(
      `[${index + 1}/${selected.length}] ${name}: p50 ${row.p50} ms, p95 ${row.p95} ms, p99 ${row.p99} ms`,
    );
    if (process.stderr.isTTY) log("");
  }

  console.log(
    `\n${formatInt(LICENSES)} licenses, ${companies.length} companies, ${templates.length} templates`,
  );
  console.log("| Case | total | items | p50 ms | p95 ms | p99 ms |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const r of results) {
    const miss = r.p95 >= TARGET_MS ? " ⚠" : "";
    console.log(`| ${r.case} | ${formatInt(r.total)} | ${r.items} | ${r.p50} | ${r.p95}${miss} | ${r.p99} |`);
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

/** A user with the admin role on `companyId`, written to the database, signed in over HTTP. */
async function signInAdmin(bench: BenchApp, companyId: string) {
  const email = "division-admin@example.com";
  const password = "bench-password-1";
  await bench.database.db.insert(tables.users).values({
    email,
    passwordHash: await hashPassword(password),
    status: "active",
    companyId,
    role: "admin",
    createdAt: new Date(),
  });
  const client = new TestClient(bench.url);
  await client.login(email, password);
  return client;
}
