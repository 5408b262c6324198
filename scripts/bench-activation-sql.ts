/**
 * PostgreSQL's own CPU per activation: runs the activation statement (`prepareActivation`, as
 * POST /client/activate runs it) on one connection per database and reads that backend's CPU time from
 * /proc, so neither the server nor anything else on a shared machine is counted. Given several databases
 * (the same data with other indexes, say), it takes turns among them in small batches, so a change of the
 * machine's load falls on all of them alike. Then prints `EXPLAIN (ANALYZE, BUFFERS, WAL)` of one more
 * activation in each (rolled back).
 *
 *   npx tsx scripts/bench-activation-sql.ts --url postgres://…/a [--url postgres://…/b …]
 *     [--activations 2000] [--batch 50] [--licenses 200] [--components 7] [--explain]
 *
 * A database is one a bench left (`BENCH_KEEP_DATABASE=1 npm run bench:client -- --only activate`), or a
 * copy (`create database b template a`): its node-locked licenses take the new machines, each one of the
 * office fleet bench:client sends (the CPU model, memory size and OS family shared by the license's
 * machines, the rest its own). Linux only (/proc).
 */
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { fillPlaceholders, sql } from "drizzle-orm";
import pg from "pg";
import { createDatabase, encodeComponents } from "@licensing/db";
import { COMPONENT_KINDS, componentHashInput } from "@licensing/protocol";
import { prepareActivation } from "../packages/core/src/activations/activate.ts";
import { knownSince } from "../packages/core/src/activations/device-budget.ts";

const { values: args } = parseArgs({
  options: {
    url: { type: "string", multiple: true },
    activations: { type: "string", default: "2000" },
    batch: { type: "string", default: "50" },
    licenses: { type: "string", default: "200" },
    components: { type: "string", default: "7" },
    explain: { type: "boolean", default: false },
  },
});
if (!args.url?.length) throw new Error("--url postgres://… is required");

const TICKS_PER_MS = 100 / 1000; // USER_HZ: /proc counts CPU time in 1/100 s
const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
};
const rows = <T>(result: unknown) => ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const shared = new Set(["cpu-model", "memory-size", "os-family"]);
const run = randomUUID().slice(0, 8);

async function open(url: string) {
  const database = createDatabase({ url, maxConnections: 1 });
  const { db } = database;
  const [{ pid }] = rows<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`)) as [
    { pid: number },
  ];
  const keys = rows<{ license_key: string }>(
    await db.execute(
      sql`select license_key from licenses where seat_model <> 'floating' order by license_key
           limit ${Number(args.licenses)}`,
    ),
  ).map((r) => r.license_key);
  if (keys.length === 0) throw new Error(`no node-locked licenses in ${url}`);
  const parameters = (i: number) => {
    const licenseKey = keys[i % keys.length]!;
    const components = COMPONENT_KINDS.slice(0, Number(args.components)).map((kind) => ({
      kind,
      hash: sha256(componentHashInput(licenseKey, kind, shared.has(kind) ? "fleet" : `${run}-${i}`)),
    }));
    const now = new Date();
    const activationId = randomUUID();
    const fingerprint = `sql-${run}-${i}`;
    return {
      licenseKey,
      fingerprint,
      machineName: null,
      components: components.length ? encodeComponents(components) : null,
      clientIp: "127.0.0.1",
      activationId,
      now: now.toISOString(),
      knownSince: knownSince(now).toISOString(),
      eventData: JSON.stringify({ licenseKey, activationId, hwFingerprint: fingerprint, mode: "online" }),
      auditMeta: JSON.stringify({ hwFingerprint: fingerprint, components: components.map((c) => c.kind) }),
    };
  };
  return {
    url,
    database,
    pid,
    keys,
    statement: prepareActivation(db),
    parameters,
    ticks: 0,
    wall: 0,
    claimed: 0,
  };
}

const targets = [];
for (const url of args.url) targets.push(await open(url));
const count = Number(args.activations);
const batch = Number(args.batch);
for (let from = 0; from < count; from += batch) {
  for (const t of targets) {
    const ticks = cpuTicks(t.pid);
    const startedAt = performance.now();
    for (let i = from; i < Math.min(count, from + batch); i++) {
      const [outcome] = await t.statement.execute(t.parameters(i));
      if (outcome?.claimed) t.claimed += 1;
    }
    t.wall += performance.now() - startedAt;
    t.ticks += cpuTicks(t.pid) - ticks;
  }
}

for (const t of targets) {
  const { db } = t.database;
  const plans = rows<{ generic_plans: number; custom_plans: number }>(
    await db.execute(
      sql`select generic_plans::int, custom_plans::int from pg_prepared_statements
           where name = 'client_activate'`,
    ),
  )[0];
  const [{ n }] = rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from activations`)) as [
    { n: number },
  ];
  console.log(
    `${new URL(t.url).pathname.slice(1)}: ${count} activations (${t.claimed} claimed) on ${t.keys.length} ` +
      `licenses, ${n} activations now: PostgreSQL ${(t.ticks / TICKS_PER_MS / count).toFixed(3)} CPU ms ` +
      `per activation, wall ${(t.wall / count).toFixed(3)} ms (plans: ${plans?.generic_plans} generic, ` +
      `${plans?.custom_plans} custom)`,
  );
}

if (args.explain) {
  for (const t of targets) {
    // On a connection of its own, in a transaction rolled back; the second of two runs, warm.
    const prepared = t.statement as unknown as { queryString: string; params: unknown[] };
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    try {
      await client.query("begin");
      const explain = (i: number) =>
        client.query<{ "QUERY PLAN": string }>(
          `explain (analyze, buffers, wal, costs off) ${prepared.queryString}`,
          fillPlaceholders(prepared.params, t.parameters(i)),
        );
      await explain(count);
      const result = await explain(count + 1);
      console.log(`\n${new URL(t.url).pathname.slice(1)}:`);
      console.log(result.rows.map((r) => r["QUERY PLAN"]).join("\n"));
    } finally {
      await client.query("rollback");
      await client.end();
    }
  }
}
for (const t of targets) await t.database.close();
