/**
 * License issuing benchmark: on a scratch database of a real PostgreSQL, issues licenses over HTTP through
 * the real app as the operator, (a) one per POST /api/v1/panel/licenses with several requests in flight and
 * (b) in bulks with POST /api/v1/panel/licenses/bulk, and prints licenses/s for each.
 * Run `npx tsx scripts/bench-issue.ts --help` for the options.
 */
import { parseArgs } from "node:util";
import type { TestClient } from "@licensing/api/testing";
import { BULK_MAX_ITEMS } from "@licensing/contracts";
import { sql } from "drizzle-orm";
import {
  DEFAULT_SERVER_URL,
  expectStatus,
  formatInt,
  log,
  percentile,
  progress,
  rows,
  startBenchApp,
} from "./lib/bench-app.ts";

const HELP = `Usage: npx tsx scripts/bench-issue.ts [options]

Issues licenses over HTTP, one by one and then in bulks, and prints licenses/s for each.

Options:
  --licenses <n>      licenses per mode (default 10000)
  --concurrency <n>   single issues in flight at once (default 16)
  --bulk-size <n>     items per bulk request, 1..${BULK_MAX_ITEMS} (default ${BULK_MAX_ITEMS})
  --bulk-concurrency <n>  bulk requests in flight at once (default 1)
  --idempotency       send an Idempotency-Key with every request (the key is stored with the result)
  --only <mode>       run one mode only: single or bulk
  -h, --help          this text

Environment:
  DATABASE_URL        PostgreSQL server to use (default ${DEFAULT_SERVER_URL}); a fresh database is
                      created on it and dropped at the end, Ctrl-C included.

Every license is signed (Ed25519) and stored with its license.issued event and audit row, as in
production. The template has a version with a configSchema, so every config is validated.`;

const { values: args } = parseArgs({
  options: {
    licenses: { type: "string", default: "10000" },
    concurrency: { type: "string", default: "16" },
    "bulk-size": { type: "string", default: String(BULK_MAX_ITEMS) },
    "bulk-concurrency": { type: "string", default: "1" },
    idempotency: { type: "boolean", default: false },
    only: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const LICENSES = Number(args.licenses);
const CONCURRENCY = Number(args.concurrency);
const BULK_SIZE = Number(args["bulk-size"]);
const BULK_CONCURRENCY = Number(args["bulk-concurrency"]);
if (args.only !== undefined && args.only !== "single" && args.only !== "bulk") {
  console.error(`--only takes single or bulk, not ${args.only}`);
  process.exit(2);
}
const RUN_SINGLE = args.only !== "bulk";
const RUN_BULK = args.only !== "single";

const app = await startBenchApp();
try {
  const { operator } = app;
  const company = await operator.api.companies.create({
    body: { name: "Bench Customer", slug: "bench", parentId: null },
  });
  expectStatus(company, 201, "create company");
  const companyId = company.body.id;
  const template = await operator.api.templates.create({
    body: { name: "Bench Product", productCode: "BENCH", defaultOfflineDays: 7, defaultValidityDays: 365 },
  });
  expectStatus(template, 201, "create template");
  const templateId = template.body.id;
  const version = await operator.api.templates.versions.create({
    params: { id: templateId },
    body: {
      configSchema: JSON.stringify({
        type: "object",
        properties: {
          features: { type: "array", items: { type: "string" } },
          limits: { type: "object", properties: { maxSeats: { type: "integer", minimum: 1 } } },
          tier: { enum: ["basic", "pro"] },
        },
        required: ["tier"],
      }),
      defaults: '{"tier":"basic","features":["core"]}',
    },
  });
  expectStatus(version, 201, "create template version");
  const config = '{"tier":"pro","limits":{"maxSeats":5}}';
  const key = (mode: string, i: number) =>
    args.idempotency ? { headers: { "idempotency-key": `bench-${mode}-${i}` } } : {};

  let single: Timing | undefined;
  if (RUN_SINGLE) {
    log(`single: ${formatInt(LICENSES)} × POST /panel/licenses, ${CONCURRENCY} in flight`);
    single = await timed(LICENSES, CONCURRENCY, 1, (i) =>
      operator.api.licenses.issue({ body: { companyId, templateId, config }, ...key("single", i) }),
    );
  }

  const requests = Math.ceil(LICENSES / BULK_SIZE);
  let bulk: Timing | undefined;
  if (RUN_BULK) {
    log(
      `bulk: ${formatInt(requests)} × POST /panel/licenses/bulk of ${BULK_SIZE}, ${BULK_CONCURRENCY} in flight`,
    );
    bulk = await timed(requests, BULK_CONCURRENCY, BULK_SIZE, async (i) => {
      const size = Math.min(BULK_SIZE, LICENSES - i * BULK_SIZE);
      const items = Array.from({ length: size }, () => ({ companyId }));
      const res = await operator.api.licenses.bulkIssue({
        body: { templateId, items, config },
        ...key("bulk", i),
      });
      if (res.status === 200 && res.body.succeeded !== size)
        throw new Error(`bulk ${i}: ${res.text.slice(0, 300)}`);
      return res;
    });
  }

  const [stored] = await rows<{ n: number }>(app.database.db, sql`SELECT count(*)::int AS n FROM licenses`);
  const count = stored!.n;
  const expected = (RUN_SINGLE ? LICENSES : 0) + (RUN_BULK ? LICENSES : 0);
  if (count !== expected) throw new Error(`expected ${expected} licenses stored, found ${count}`);

  console.log(`\n${formatInt(LICENSES)} licenses per mode, ${formatInt(count)} stored`);
  console.log(
    "| Mode | Requests | In flight | Seconds | Licenses/s | Request p50 ms | p95 ms | p99 ms | CPU ms/license |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  const row = (mode: string, r: Timing, inFlight: number) =>
    console.log(
      `| ${mode} | ${formatInt(r.requests)} | ${inFlight} | ${r.seconds.toFixed(2)} | ${formatInt(LICENSES / r.seconds)} | ` +
        `${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpuPerLicense.toFixed(3)} |`,
    );
  if (single) row("single (POST /licenses)", single, CONCURRENCY);
  if (bulk) row(`bulk of ${BULK_SIZE} (POST /licenses/bulk)`, bulk, BULK_CONCURRENCY);
} finally {
  await app.close();
}

interface Timing {
  requests: number;
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
  /** CPU time of this process (client and server) per license, ms: steadier than the rate on a loaded machine. */
  cpuPerLicense: number;
}

/**
 * Sends `requests` requests, `inFlight` at a time, each issuing `perRequest` licenses; fails on the first
 * non-success answer. Progress (licenses and the running rate) goes to stderr.
 */
async function timed(
  requests: number,
  inFlight: number,
  perRequest: number,
  send: (i: number) => Promise<Awaited<ReturnType<TestClient["post"]>>>,
): Promise<Timing> {
  const latencies: number[] = [];
  let next = 0;
  let done = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const report = () => {
    const issued = Math.min(LICENSES, done * perRequest);
    const rate = issued / ((performance.now() - started) / 1000);
    progress(`  ${formatInt(issued)}/${formatInt(LICENSES)} licenses, ${formatInt(rate)}/s`);
  };
  const ticker = setInterval(report, 1000);
  try {
    await Promise.all(
      Array.from({ length: Math.min(inFlight, requests) }, async () => {
        while (next < requests) {
          const i = next++;
          const t = performance.now();
          const res = await send(i);
          latencies.push(performance.now() - t);
          if (res.status !== 200 && res.status !== 201) {
            throw new Error(`request ${i}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
          }
          done++;
        }
      }),
    );
  } finally {
    clearInterval(ticker);
  }
  report();
  if (process.stderr.isTTY) log("");
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    cpuPerLicense: (cpu.user + cpu.system) / 1000 / LICENSES,
    requests,
    seconds: (performance.now() - started) / 1000,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}
