/**
 * Client API benchmark (issue 5): the real server, in its own process on a scratch PostgreSQL database,
 * under autocannon (32 connections) for activate, heartbeat and lease renewal (issue 23), next to the
 * floor: a bare Express 5 route that only signs a marker. Prints requests/s, p50/p99, the ratio to the floor, and the CPU each
 * request cost the process under test and PostgreSQL.
 *
 *   npx tsx scripts/bench-client.ts [--duration 10] [--connections 32] [--licenses 200] [--runs 1]
 *     [--components 7]
 *   DATABASE_URL=postgres://… selects the PostgreSQL server (default: the local one).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { signRequest } from "@licensing/core";
import { COMPONENT_KINDS, componentHashInput } from "@licensing/protocol";
import { TestClient } from "@licensing/api/testing";
import autocannon from "autocannon";
import pg from "pg";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    licenses: { type: "string", default: "200" },
    runs: { type: "string", default: "1" },
    components: { type: "string", default: "7" },
    only: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log(`Usage: npx tsx scripts/bench-client.ts [--duration seconds] [--connections n] [--licenses n] [--runs n]
       [--components n]

Starts the server (apps/server/src/main.ts) on a fresh database of the PostgreSQL server named by
DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), seeds licenses over HTTP, then runs
autocannon against POST /client/activate (a new fingerprint each time, seat check included, with the
SDK's 7 fingerprint components: --components 0 sends none, as SDKs before issue 22 did), POST
/client/heartbeat (signed v1+v2), POST /client/leases/renew over 256 live leases of floating licenses
(signed v1+v2) and the marker-signing floor; --only activate|heartbeat|floor|lease-renew runs one.
Besides requests/s and latency it prints CPU ms per request of the server and of PostgreSQL (from /proc).
--runs repeats the three scenarios and adds the median of each figure (the machine's own noise is often
±20 %). The database is dropped at the end.`);
  process.exit(0);
}
const duration = Number(args.duration);
const connections = Number(args.connections);
const licenseCount = Number(args.licenses);
const runs = Number(args.runs);
const componentCount = Number(args.components);
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const log = (message: string) => console.log(`[bench-client] ${message}`);

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Spawns a node process running a TypeScript entry and resolves with the port it reports. */
function spawnService(
  entry: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? []), "--import", "tsx", entry],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"port":(\d+)/.exec(output);
      if (match) {
        // Keep draining stdout (request logs) so the server never blocks on a full pipe.
        child.stdout!.removeAllListeners("data").resume();
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.on("exit", (code) => reject(new Error(`${entry} exited with ${code}`)));
  });
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU milliseconds per request spent by the process under test and by PostgreSQL. */
  serviceCpu: number;
  databaseCpu: number;
}

const TICKS_PER_MS = 100 / 1000; // USER_HZ: /proc counts CPU time in 1/100 s

/** CPU ticks (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return NaN;
  }
}

/** CPU ticks used so far by each local PostgreSQL process. */
function databaseTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) {
        ticks.set(Number(entry), cpuTicks(Number(entry)));
      }
    } catch {
      // The process ended while we looked.
    }
  }
  return ticks;
}

/** CPU ticks PostgreSQL used since `before` (processes that ended meanwhile are not counted). */
function databaseTicksSince(before: Map<number, number>): number {
  let used = 0;
  for (const [pid, ticks] of databaseTicks()) used += ticks - (before.get(pid) ?? 0);
  return used;
}

async function load(name: string, pid: number, options: autocannon.Options): Promise<Figures> {
  log(`${name}: ${connections} connections for ${duration} s…`);
  const before = { service: cpuTicks(pid), database: databaseTicks() };
  const result = await autocannon({ connections, duration, ...options });
  const requests = result.requests.total;
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    serviceCpu: (cpuTicks(pid) - before.service) / TICKS_PER_MS / requests,
    databaseCpu: databaseTicksSince(before.database) / TICKS_PER_MS / requests,
  };
}

const database = `bench_client_${randomBytes(4).toString("hex")}`;
const children: ChildProcess[] = [];
const url = new URL(serverUrl);
url.pathname = `/${database}`;

async function main() {
  await admin(`CREATE DATABASE ${database}`);
  log(`scratch database ${database}`);
  const server = await spawnService("apps/server/src/main.ts", {
    PORT: "0",
    DATABASE_URL: url.toString(),
    LICENSING_MASTER_KEY: randomBytes(32).toString("base64"),
    DATA_DIR: `/tmp/${database}`,
    RATE_LIMIT_CLIENT: "1000000000",
    RATE_LIMIT_PANEL: "1000000000",
    RATE_LIMIT_AUTH: "1000000000",
    BOOTSTRAP_OPERATOR_EMAIL: "bench@example.com",
    BOOTSTRAP_OPERATOR_PASSWORD: "bench-password-1",
    LOG_LEVEL: "info",
  });
  children.push(server.child);
  const floor = await spawnService("scripts/lib/marker-floor-server.ts", {});
  children.push(floor.child);
  const base = `http://127.0.0.1:${server.port}`;

  log(`seeding ${licenseCount} licenses…`);
  const operator = new TestClient(base);
  await operator.login("bench@example.com", "bench-password-1");
  const company = await operator.api.companies.create({ body: { name: "Bench", slug: "bench" } });
  const template = await operator.api.templates.create({
    body: { name: "Bench product", productCode: "BENCH", defaultOfflineDays: 7, defaultValidityDays: 365 },
  });
  const keys: string[] = [];
  for (let offset = 0; offset < licenseCount; offset += 200) {
    const size = Math.min(200, licenseCount - offset);
    const bulk = await operator.api.licenses.bulkIssue({
      body: {
        templateId: template.body.id,
        items: Array.from({ length: size }, () => ({ companyId: company.body.id })),
        config: JSON.stringify({ features: [], limits: { maxSeats: 1_000_000 } }),
      },
    });
    for (const row of bulk.body.results) keys.push(row.licenseKey!);
  }
  const activationsPool: { licenseKey: string; activationId: string }[] = [];
  for (let i = 0; i < 256; i++) {
    const licenseKey = keys[i % keys.length]!;
    const res = await operator.api.client.activate({ body: { licenseKey, hwFingerprint: `pool-${i}` } });
    activationsPool.push({ licenseKey, activationId: res.body.activationId });
  }

  // 256 live leases of floating licenses, a day long so none expires during the run (issue 23).
  log("seeding 256 live leases…");
  const floating = await operator.api.licenses.bulkIssue({
    body: {
      templateId: template.body.id,
      items: Array.from({ length: 32 }, () => ({ companyId: company.body.id })),
      config: JSON.stringify({ features: [], limits: { maxSeats: 1_000_000 } }),
      seatModel: "floating",
      leaseSeconds: 86_400,
    },
  });
  const floatingKeys = floating.body.results.map((row) => row.licenseKey!);
  const leasePool: { licenseKey: string; leaseId: string }[] = [];
  for (let i = 0; i < 256; i++) {
    const licenseKey = floatingKeys[i % floatingKeys.length]!;
    const activated = await operator.api.client.activate({
      body: { licenseKey, hwFingerprint: `lease-${i}` },
    });
    const body = JSON.stringify({ licenseKey, activationId: activated.body.activationId });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const path = "/api/v1/client/leases";
    const res = await operator.request<{ leaseId: string }>("POST", path, body, {
      "content-type": "application/json",
      "x-service-timestamp": timestamp,
      "x-service-signature": signRequest(licenseKey, timestamp, { method: "POST", path, body }),
    });
    if (res.status !== 201) throw new Error(`lease ${i}: ${res.status} ${res.text}`);
    leasePool.push({ licenseKey, leaseId: res.body.leaseId });
  }

  // What the SDK sends: seven components (issue 22). A new machine of an office fleet: the CPU model,
  // memory size and OS family are those of the license's other machines (the same hash, salted with the
  // same key), the machine id, disk, MAC and host name its own; so the server scores it against the
  // license's live activations and heals nothing.
  const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
  const shared = new Set(["cpu-model", "memory-size", "os-family"]);
  const components = (licenseKey: string, machine: number) =>
    COMPONENT_KINDS.slice(0, componentCount).map((kind) => ({
      kind,
      hash: sha256(componentHashInput(licenseKey, kind, shared.has(kind) ? "fleet" : String(machine))),
    }));

  let counter = 0;
  const wanted = (name: string) => !args.only || args.only === name;
  const skipped: Figures = {
    name: "",
    rps: NaN,
    p50: NaN,
    p99: NaN,
    non2xx: 0,
    errors: 0,
    serviceCpu: NaN,
    databaseCpu: NaN,
  };
  const serverPid = server.child.pid!;
  const activateRequests: autocannon.Request[] = [
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      setupRequest: (req) => {
        counter += 1;
        const licenseKey = keys[counter % keys.length]!;
        const body = JSON.stringify({
          licenseKey,
          hwFingerprint: `m-${counter}`,
          ...(componentCount > 0 ? { components: components(licenseKey, counter) } : {}),
        });
        return { ...req, body };
      },
    },
  ];

  const path = "/api/v1/client/heartbeat";
  // A heartbeat as the SDK sends it, over the pool of live activations. The floor gets the same requests,
  // so the load generator spends the same work on both.
  const signedHeartbeats: autocannon.Request[] = [
    {
      method: "POST",
      setupRequest: (req) => {
        counter += 1;
        const target = activationsPool[counter % activationsPool.length]!;
        const body = JSON.stringify(target);
        const timestamp = String(Math.floor(Date.now() / 1000));
        return {
          ...req,
          body,
          headers: {
            "content-type": "application/json",
            "x-service-timestamp": timestamp,
            "x-service-signature": signRequest(target.licenseKey, timestamp, { method: "POST", path, body }),
          },
        };
      },
    },
  ];

  const renewPath = "/api/v1/client/leases/renew";
  // A renewal as the SDK sends it, over the pool of live leases.
  const signedRenewals: autocannon.Request[] = [
    {
      method: "POST",
      setupRequest: (req) => {
        counter += 1;
        const target = leasePool[counter % leasePool.length]!;
        const body = JSON.stringify(target);
        const timestamp = String(Math.floor(Date.now() / 1000));
        return {
          ...req,
          body,
          headers: {
            "content-type": "application/json",
            "x-service-timestamp": timestamp,
            "x-service-signature": signRequest(target.licenseKey, timestamp, {
              method: "POST",
              path: renewPath,
              body,
            }),
          },
        };
      },
    },
  ];

  const scenario = (name: string, run: () => Promise<Figures>) =>
    wanted(name.split(" ")[0]!) ? run() : Promise.resolve({ ...skipped, name });
  const results: Figures[][] = [];
  for (let run = 1; run <= runs; run++) {
    if (runs > 1) log(`run ${run} of ${runs}`);
    const activateName = `activate (new fp, ${componentCount} comp.)`;
    const activate = await scenario(activateName, () =>
      load(activateName, serverPid, {
        url: `${base}/api/v1/client/activate`,
        requests: activateRequests,
      }),
    );
    const heartbeat = await scenario("heartbeat (HMAC v1+v2)", () =>
      load("heartbeat (HMAC v1+v2)", serverPid, { url: `${base}${path}`, requests: signedHeartbeats }),
    );
    const floorFigures = await scenario("floor (Express 5 + sign marker)", () =>
      load("floor (Express 5 + sign marker)", floor.child.pid!, {
        url: `http://127.0.0.1:${floor.port}/marker`,
        requests: signedHeartbeats,
      }),
    );
    const leaseRenew = await scenario("lease-renew (HMAC v1+v2)", () =>
      load("lease-renew (HMAC v1+v2)", serverPid, { url: `${base}${renewPath}`, requests: signedRenewals }),
    );
    results.push([activate, heartbeat, floorFigures, leaseRenew]);
  }

  console.log(
    "\nrun  scenario                             req/s    p50 ms   p99 ms   non-2xx  errors   vs floor   cpu ms/req (node + pg)",
  );
  const rows = results.map((figures, i) => ({ label: String(i + 1), figures }));
  if (runs > 1) rows.push({ label: "med", figures: medians(results) });
  for (const { label, figures } of rows) {
    const floorRps = figures[2]!.rps;
    for (const f of figures.filter((f) => !Number.isNaN(f.rps))) {
      console.log(
        `${label.padEnd(4)} ${f.name.padEnd(34)} ${f.rps.toFixed(0).padStart(7)} ${String(f.p50).padStart(9)} ${String(f.p99).padStart(8)} ${String(f.non2xx).padStart(9)} ${String(f.errors).padStart(7)} ${((f.rps / floorRps) * 100).toFixed(0).padStart(8)}%   ${f.serviceCpu.toFixed(2)} + ${f.databaseCpu.toFixed(2)}`,
      );
    }
  }
  const [activate, heartbeat, floorFigures, leaseRenew] = rows.at(-1)!.figures as [
    Figures,
    Figures,
    Figures,
    Figures,
  ];
  console.log(
    `\ntargets${runs > 1 ? " (medians)" : ""}: heartbeat >= 50% of floor (${((heartbeat.rps / floorFigures.rps) * 100).toFixed(0)}%), heartbeat p99 < 25 ms (${heartbeat.p99} ms; floor ${floorFigures.p99} ms), activate >= 1000/s (${activate.rps.toFixed(0)}/s), lease-renew >= 75% of floor (${((leaseRenew.rps / floorFigures.rps) * 100).toFixed(0)}%, ${leaseRenew.serviceCpu.toFixed(2)} + ${leaseRenew.databaseCpu.toFixed(2)} CPU ms/renew)`,
  );
}

/** The median of each figure over the runs, scenario by scenario. */
function medians(results: Figures[][]): Figures[] {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  return results[0]!.map((first, i) => {
    const of = (key: keyof Omit<Figures, "name">) => median(results.map((run) => run[i]![key]));
    return {
      name: first.name,
      rps: of("rps"),
      p50: of("p50"),
      p99: of("p99"),
      non2xx: of("non2xx"),
      errors: of("errors"),
      serviceCpu: of("serviceCpu"),
      databaseCpu: of("databaseCpu"),
    };
  });
}

async function cleanup() {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 1500));
  if (process.env.BENCH_KEEP_DATABASE) return log(`kept database ${database}`);
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch((err: unknown) => console.error(err));
}

process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
main()
  .then(cleanup)
  .catch(async (err: unknown) => {
    console.error(err);
    await cleanup();
    process.exit(1);
  });
