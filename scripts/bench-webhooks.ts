/**
 * Webhook delivery benchmark on a scratch database of a real PostgreSQL: (a) latency from the request
 * that issues a license to the receiver getting its license.issued delivery, woken by LISTEN/NOTIFY as
 * the server is (the poll is an hour away); (b) throughput of a backlog of events sent by one and by two
 * dispatchers (two connection pools, as two instances). Run `npx tsx scripts/bench-webhooks.ts --help`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { webhooks, type Deps } from "@licensing/core";
import { createDatabase, tables } from "@licensing/db";
import { startWorkers } from "../apps/server/src/workers.ts";
import {
  DEFAULT_SERVER_URL,
  expectStatus,
  formatInt,
  log,
  percentile,
  startBenchApp,
} from "./lib/bench-app.ts";

const HELP = `Usage: npx tsx scripts/bench-webhooks.ts [options]

Measures how soon a delivery leaves after the commit that creates it, and how many deliveries per second
one and two dispatchers send to a receiver on loopback that answers 200 at once.

Options:
  --latency-events <n>  licenses issued one after another for the latency figures (default 200)
  --backlog <n>         events in the backlog for the throughput figures (default 5000)
  -h, --help            this text

Environment:
  DATABASE_URL          PostgreSQL server to use (default ${DEFAULT_SERVER_URL}); a fresh database is
                        created on it and dropped at the end, Ctrl-C included.`;

const { values: args } = parseArgs({
  options: {
    "latency-events": { type: "string", default: "200" },
    backlog: { type: "string", default: "5000" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const LATENCY_EVENTS = Number(args["latency-events"]);
const BACKLOG = Number(args.backlog);

// The receiver: answers 200 at once and notes when each delivery arrived.
const arrivals = new Map<string, number>();
let waiting: { done: () => boolean; resolve: () => void } | undefined;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { licenseId: string } };
    arrivals.set(body.data.licenseId, performance.now());
    res.writeHead(200).end("ok");
    if (waiting?.done()) waiting.resolve();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
const until = (done: () => boolean) =>
  new Promise<void>((resolve) => {
    if (done()) return resolve();
    waiting = { done, resolve };
  });

const app = await startBenchApp({ webhooks: { allowPrivate: true } });
const second = createDatabase({ url: app.database.url!, maxConnections: 10 });
try {
  const { operator } = app;
  const endpoint = await operator.api.webhooks.create({
    body: { url: receiverUrl, secret: "bench-secret-0123456789", events: ["license.issued"] },
  });
  expectStatus(endpoint, 201, "create endpoint");
  const company = await operator.api.companies.create({ body: { name: "Bench", slug: "bench" } });
  expectStatus(company, 201, "create company");
  const template = await operator.api.templates.create({
    body: { name: "Bench Product", productCode: "BENCH", defaultOfflineDays: 7, defaultValidityDays: 365 },
  });
  expectStatus(template, 201, "create template");

  // (a) Latency: the server's wiring, a job woken by the listener.
  const workers = startWorkers(app.deps, [
    {
      id: "webhook-deliveries",
      intervalMs: 3_600_000,
      handler: (deps) => webhooks.dispatchDueDeliveries(deps),
    },
  ]);
  const unlisten = await app.database.listen(webhooks.WAKE_CHANNEL, () => workers.wake("webhook-deliveries"));
  const latencies: number[] = [];
  const requestTimes: number[] = [];
  log(`latency: issuing ${LATENCY_EVENTS} licenses one after another`);
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    const started = performance.now();
    const issued = await operator.api.licenses.issue({
      body: { companyId: company.body.id, templateId: template.body.id },
    });
    expectStatus(issued, 201, "issue");
    requestTimes.push(performance.now() - started);
    await until(() => arrivals.has(issued.body.id));
    latencies.push(arrivals.get(issued.body.id)! - started);
  }
  await unlisten();
  await workers.stop();

  // (b) Throughput: a backlog written in one statement, then drained by one or two dispatchers.
  const drain = async (dispatchers: Deps[]) => {
    arrivals.clear();
    const now = app.deps.clock.now();
    await app.deps.db.insert(tables.outboxEvents).values(
      Array.from({ length: BACKLOG }, (_, i) => ({
        eventType: "license.issued",
        data: { licenseId: `backlog-${dispatchers.length}-${i}` },
        occurredAt: now,
      })),
    );
    const started = performance.now();
    await Promise.all(dispatchers.map((deps) => webhooks.dispatchDueDeliveries(deps)));
    await until(() => arrivals.size >= BACKLOG);
    return BACKLOG / ((performance.now() - started) / 1000);
  };
  log(`throughput: ${BACKLOG} deliveries, one dispatcher, then two`);
  const one = await drain([app.deps]);
  const two = await drain([app.deps, { ...app.deps, db: second.db }]);

  const sorted = [...latencies].sort((x, y) => x - y);
  const requests = [...requestTimes].sort((x, y) => x - y);
  console.log(`commit to receipt, ${LATENCY_EVENTS} deliveries (ms, from the start of the issuing request):`);
  console.log(
    `  p50 ${percentile(sorted, 50).toFixed(1)}  p95 ${percentile(sorted, 95).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  max ${sorted.at(-1)!.toFixed(1)}`,
  );
  console.log(
    `  the issuing request alone: p50 ${percentile(requests, 50).toFixed(1)}  p99 ${percentile(requests, 99).toFixed(1)}`,
  );
  console.log(`throughput, ${BACKLOG} deliveries (10 sends in flight per dispatcher):`);
  console.log(`  one dispatcher   ${formatInt(one)} deliveries/s`);
  console.log(`  two dispatchers  ${formatInt(two)} deliveries/s`);
} finally {
  await second.close();
  await app.close();
  receiver.closeAllConnections();
  receiver.close();
}
