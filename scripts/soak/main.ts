/**
 * The soak (issue 25 §4): two server instances (`npm start`'s compiled build) on one PostgreSQL database and
 * one Redis, under simulated machines and panel users for N minutes, with a `kill -9` of one instance and a
 * PostgreSQL restart at fixed times; then the invariants. See `--help`.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { TestClient } from "@licensing/api/testing";
import { EVENT_TYPES } from "@licensing/contracts";
import {
  roundRobin,
  startInstances,
  stopAll,
  type Instance,
} from "../../apps/server/src/testing/instances.ts";
import {
  startPrivatePostgres,
  type PrivatePostgres,
} from "../../apps/server/src/testing/private-postgres.ts";
import { DEFAULT_PLAN, inWindow, NO_FAULTS, scheduleFaults } from "./faults.ts";
import { httpClient } from "./http.ts";
import { checkInvariants, settleWebhooks, startSampler, withDatabase, type Check } from "./invariants.ts";
import { startMachines, type Ledger, type LicenseRef } from "./machines.ts";
import { memoryCheck, startRssSampler } from "./memory.ts";
import { startPanelUsers } from "./panel.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import { Recorder } from "./record.ts";
import { buildReport, printReport } from "./report.ts";

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    machines: { type: "string", default: "10000" },
    rate: { type: "string", default: "600" },
    "in-flight": { type: "string", default: "48" },
    "panel-users": { type: "string", default: "3" },
    json: { type: "string" },
    fsync: { type: "boolean", default: false },
    "no-faults": { type: "boolean", default: false },
    "node-options": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log(`Usage: npm run soak -- [--minutes 10] [--machines 10000] [--rate 600] [--in-flight 48]
       [--panel-users 3] [--fsync] [--no-faults] [--node-options='...'] [--json file]

Starts a PostgreSQL cluster of its own (initdb in a temporary directory on a free port, as the PostgreSQL
restart test does, so the restart never touches the machine's shared server; fsync off unless --fsync:
the faults lose no page cache, and the figures then do not depend on a shared disk), a database in it, and two
server instances as \`npm start\` runs them (the compiled build, built first when stale) on it and on Redis
(REDIS_URL, default redis://127.0.0.1:6379), with one LICENSING_MASTER_KEY. Then, for --minutes:

  - --machines simulated machines, SDK-shaped signed requests from one scheduler (at most --rate requests
    a second, --in-flight at once, round robin over the instances): 80 % on node-locked licenses of 3 seats
    with 4 machines each (activate, heartbeat, now and then deactivate and activate again), 20 % on
    floating licenses of 10 seats with 20 machines each (activate, acquire a lease, renew and heartbeat in
    turn, now and then release). Each machine sends one request per period (machines / rate seconds, its
    heartbeat interval in compressed time). Refusals for want of seats are expected outcomes.
  - --panel-users operators searching licenses and issuing them.
  - a webhook endpoint subscribed to every event, on a local receiver that counts delivery ids.
  - at 40 % of the run, kill -9 of instance B, restarted at once; at 60 %, PostgreSQL restarted
    (pg_ctl stop -m fast, then start). --no-faults leaves both out (the load alone).

It prints throughput, p50/p99 per operation, refusals and errors by code (inside and outside the fault
windows), the RSS of each process over time, and the invariants: no seat oversold and no lease beyond
maxSeats (at the end and sampled during), no acknowledged write lost, every webhook delivered once, no
server error outside the fault windows, memory flat (growth under 10 %) after the first minute (a run shorter than 3 minutes
reports the memory from 20 s on without judging it: its RSS is still the warm-up's). Exits 1 when an invariant fails. --json writes the report to a file.
--node-options='...' is the instances' NODE_OPTIONS (with '='), e.g. --node-options='--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp/heap'
to take heap snapshots of a running instance (kill -USR2 <pid>; the pids are printed at the start). A
snapshot stops the instance for seconds (requests on it meet resets and 503s outside the fault windows) and
leaves its RSS higher: judge the memory on an instance that took none.
Needs the PostgreSQL server programs (initdb, pg_ctl) and Redis.`);
  process.exit(0);
}

const minutes = Number(args.minutes);
const durationSeconds = minutes * 60;
const machineCount = Number(args.machines);
const rate = Number(args.rate);
const inFlight = Number(args["in-flight"]);
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const warmSeconds = durationSeconds >= 180 ? 60 : 20;
const periodSeconds = Math.max(1, machineCount / rate);
const leaseSeconds = Math.max(60, Math.ceil(periodSeconds * 6));
const OPERATOR = { email: "soak@example.com", password: "soak-password-1" };
const WEBHOOK_SECRET = randomBytes(16).toString("hex");
const FLOATING_SHARE = 0.2;
const NODE_LOCKED = { seats: 3, machinesPerLicense: 4 };
const FLOATING = { seats: 10, machinesPerLicense: 20 };

const startedAt = Date.now();
const say = (message: string) =>
  console.log(`soak: ${message} (${((Date.now() - startedAt) / 1000).toFixed(0)}s)`);

let postgres: PrivatePostgres | undefined;
let instances: Instance[] = [];
let receiver: Receiver | undefined;

async function bulkIssue(
  operator: TestClient,
  input: { companyId: string; templateId: string; count: number; seats: number },
) {
  const issued: LicenseRef[] = [];
  for (let offset = 0; offset < input.count; offset += 200) {
    const res = await operator.api.licenses.bulkIssue({
      body: {
        templateId: input.templateId,
        items: Array.from({ length: Math.min(200, input.count - offset) }, () => ({
          companyId: input.companyId,
        })),
        config: JSON.stringify({ features: [], limits: { maxSeats: input.seats } }),
      },
    });
    for (const row of res.body.results) issued.push({ id: row.licenseId!, key: row.licenseKey! });
  }
  return issued;
}

async function main() {
  // The cluster of the run: a fault may stop it. Room for two instances' pools and the samplers.
  // fsync off unless asked for: the faults are a process killed and a PostgreSQL restart, neither of which
  // loses the operating system's page cache, so no acknowledged write depends on it, and the figures do not
  // depend on the disk of a shared machine.
  postgres = await startPrivatePostgres({
    settings: ["-c max_connections=200", "-c shared_buffers=256MB", ...(args.fsync ? [] : ["-c fsync=off"])],
  });
  const databaseUrl = postgres.url.replace(/\/postgres$/, "/soak");
  await withDatabase(postgres.url, (query) => query("create database soak"));
  say(`PostgreSQL cluster of its own on port ${postgres.port}, database soak`);

  const recorder = new Recorder(Date.now());
  receiver = await startReceiver(WEBHOOK_SECRET, () => recorder.elapsed());
  instances = await startInstances(2, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    LICENSING_MASTER_KEY: randomBytes(32).toString("base64"),
    PUBLIC_BASE_URL: "http://licensing.test",
    BOOTSTRAP_OPERATOR_EMAIL: OPERATOR.email,
    BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR.password,
    RATE_LIMIT_PANEL: "100000000",
    RATE_LIMIT_CLIENT: "100000000",
    RATE_LIMIT_AUTH: "100000",
    // The jobs run often, so every sweep is raced by both instances during the run.
    SWEEP_INTERVAL_SECONDS: "10",
    ANALYTICS_INTERVAL_SECONDS: "30",
    WEBHOOK_ALLOW_PRIVATE: "true",
    LOG_LEVEL: "warn",
    ...(args["node-options"] ? { NODE_OPTIONS: args["node-options"] } : {}),
  });
  say(`instances ${instances.map((i) => `${i.name} ${i.url} (pid ${i.pid()})`).join(", ")}`);

  const operator = new TestClient(instances[0]!.url);
  await operator.login(OPERATOR.email, OPERATOR.password);
  const endpoint = await operator.api.webhooks.create({
    body: { url: receiver.url, secret: WEBHOOK_SECRET, description: "soak", events: [...EVENT_TYPES] },
  });
  if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${endpoint.text}`);
  const company = await operator.api.companies.create({ body: { name: "Soak Industries", slug: "soak" } });
  const template = (body: Record<string, unknown>) =>
    operator.api.templates.create({
      body: { defaultOfflineDays: 7, defaultValidityDays: 365, ...body } as never,
    });
  const nodeLockedTemplate = await template({ name: "Soak desktop", productCode: "SOAKDESK" });
  const floatingTemplate = await template({
    name: "Soak floating",
    productCode: "SOAKFLOAT",
    seatModel: "floating",
    leaseSeconds,
  });
  const companyId = company.body.id;
  const floatingMachines = Math.round(machineCount * FLOATING_SHARE);
  const nodeLocked = await bulkIssue(operator, {
    companyId,
    templateId: nodeLockedTemplate.body.id,
    count: Math.ceil((machineCount - floatingMachines) / NODE_LOCKED.machinesPerLicense),
    seats: NODE_LOCKED.seats,
  });
  const floating = await bulkIssue(operator, {
    companyId,
    templateId: floatingTemplate.body.id,
    count: Math.max(1, Math.ceil(floatingMachines / FLOATING.machinesPerLicense)),
    seats: FLOATING.seats,
  });
  say(
    `${nodeLocked.length} node-locked licenses (${NODE_LOCKED.seats} seats), ${floating.length} floating (${FLOATING.seats} seats, leases of ${leaseSeconds} s)`,
  );

  const ledger: Ledger = { activations: new Map(), leases: new Set(), licenses: new Set(), heartbeats: 0 };
  const http = httpClient(inFlight);
  const loadAverageStart = loadavg();
  const target = roundRobin(instances.map((i) => i.url));
  const elapsed = () => recorder.elapsed();
  recorder.startedAt = Date.now();
  const rss = startRssSampler(
    instances,
    Math.min(10_000, Math.max(2000, (durationSeconds * 1000) / 60)),
    elapsed,
  );
  const sampler = startSampler(databaseUrl, 5000);
  const machines = startMachines({
    nodeLocked,
    floating,
    machines: machineCount,
    floatingShare: FLOATING_SHARE,
    rate,
    inFlight,
    periodSeconds,
    target,
    http,
    recorder,
    ledger,
  });
  const panel = startPanelUsers({
    users: Number(args["panel-users"]),
    thinkMs: 300,
    cookie: operator.cookie!,
    target,
    issue: { companyId, templateId: nodeLockedTemplate.body.id },
    known: nodeLocked,
    recorder,
    ledger,
  });
  const faults = scheduleFaults({
    plan: args["no-faults"] ? NO_FAULTS : DEFAULT_PLAN,
    durationSeconds,
    elapsed,
    victim: instances[1]!,
    instances,
    postgres,
    say,
  });
  say(
    `load: ${machineCount} machines, one request each per ${periodSeconds.toFixed(1)} s, at most ${rate}/s and ${inFlight} in flight, for ${minutes} min`,
  );
  const progress = setInterval(
    () => {
      const last = recorder.perSecond.slice(-11, -1).reduce((sum, n) => sum + (n ?? 0), 0) / 10;
      const kinds = new Map<string, number>();
      for (const e of recorder.errors)
        kinds.set(`${e.op} ${e.key}`, (kinds.get(`${e.op} ${e.key}`) ?? 0) + 1);
      const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 3);
      say(
        `${recorder.total()} requests, ${last.toFixed(0)}/s over the last 10 s, backlog ${machines.backlog()}, ` +
          `${recorder.errors.length} errors${top.length ? ` (${top.map(([k, n]) => `${k}: ${n}`).join(", ")})` : ""}`,
      );
    },
    Math.min(30_000, (durationSeconds * 1000) / 6),
  );

  await new Promise((resolve) => setTimeout(resolve, durationSeconds * 1000));
  const loadAverageEnd = loadavg();
  await Promise.all([machines.stop(), panel.stop()]);
  const ranSeconds = elapsed();
  clearInterval(progress);
  rss.stop();
  await sampler.stop();
  await faults.finished();
  say(`load stopped after ${ranSeconds.toFixed(0)} s`);

  // The killed dispatcher's claims run out (send timeout + 60 s), then the other instance sends them.
  await settleWebhooks(databaseUrl, 180, say);
  const { checks, figures } = await checkInvariants({
    url: databaseUrl,
    ledger,
    receiver,
    samples: sampler.samples,
    windows: faults.windows,
  });
  const serverErrors = recorder.errors.filter((e) => e.key.startsWith("5"));
  const outside = recorder.errors.filter((e) => !inWindow(faults.windows, e.at));
  const errorCheck: Check = {
    name: "no error outside the fault windows, no 500",
    ok: outside.length === 0 && !serverErrors.some((e) => e.key.startsWith("500")),
    detail: `${recorder.errors.length} errors, ${outside.length} outside the windows, ${serverErrors.filter((e) => e.key.startsWith("500")).length} answered 500`,
  };
  const logged = instances.map((i) => (i.output().match(/"level":(50|60)/g) ?? []).length);
  const logCheck: Check = {
    name: "no error logged by an instance",
    ok: logged.every((n) => n === 0),
    detail: instances.map((i, n) => `${i.name} ${logged[n]}`).join(", "),
  };
  const faultCheck: Check = {
    name: "every fault recovered",
    ok: faults.failures.length === 0 && faults.windows.every((w) => w.recoveredAt !== undefined),
    detail: faults.failures.length
      ? faults.failures.join("; ")
      : faults.windows.map((w) => w.name).join(", ") || "none (--no-faults)",
  };
  // Memory is judged once the fleet is up (every machine had its first turn): on a slow machine that takes
  // longer than the first minute, and until then each new machine adds to what the instances hold.
  const fleetUp = machines.fleetUpAt();
  const fleetUpSeconds = fleetUp === undefined ? ranSeconds : recorder.elapsed(fleetUp);
  say(`the fleet was up (every machine had had a turn) at ${fleetUpSeconds.toFixed(0)} s`);
  const memoryFrom = Math.max(warmSeconds, Math.ceil(fleetUpSeconds));
  checks.push(
    faultCheck,
    errorCheck,
    logCheck,
    memoryCheck(rss.samples, memoryFrom, 0.1, warmSeconds, durationSeconds >= 180),
  );
  for (const i of instances)
    if (logged[instances.indexOf(i)]! > 0)
      console.log(
        `--- instance ${i.name}: error lines\n${i
          .output()
          .split("\n")
          .filter((l) => /"level":(50|60)/.test(l))
          .slice(0, 10)
          .join("\n")}`,
      );

  const report = buildReport({
    recorder,
    durationSeconds: ranSeconds,
    windows: faults.windows,
    rss: rss.samples,
    lateness: machines.lateness,
    settings: {
      minutes,
      machines: machineCount,
      "rate cap /s": rate,
      "in flight": inFlight,
      "period s": Number(periodSeconds.toFixed(1)),
      "lease s": leaseSeconds,
      "panel users": Number(args["panel-users"]),
      "memory from s": memoryFrom,
      fsync: args.fsync ? "on" : "off",
    },
    loadAverage: { start: loadAverageStart, end: loadAverageEnd },
    figures,
    checks,
  });
  printReport(report);
  console.log(`\nfigures: ${JSON.stringify(figures)}`);
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
  http.close();
  return checks.every((c) => c.ok);
}

async function cleanup() {
  await stopAll(instances);
  await receiver?.close();
  await postgres?.destroy();
}

main()
  .then(async (passed) => {
    await cleanup();
    say(passed ? "every invariant held" : "an invariant failed");
    process.exit(passed ? 0 : 1);
  })
  .catch(async (error: unknown) => {
    console.error(error);
    for (const instance of instances)
      console.error(`--- instance ${instance.name}\n${instance.output().slice(-3000)}`);
    await cleanup();
    process.exit(1);
  });
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
