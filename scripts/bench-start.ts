/**
 * Start-up benchmark: starts the server as `npm start` does (`node scripts/start.mjs`, compiled
 * JavaScript) and, for comparison, through the TypeScript loader it replaced (`node --import tsx
 * apps/server/src/main.ts`); measures the time from spawning the process to the first 200 from
 * /readyz, and the process's resident memory (VmRSS) after it has been idle for a few seconds.
 *
 *   npm run bench:start                      # embedded database (fresh and existing data directory) and PostgreSQL
 *   npm run bench:start -- --runs 5 --idle 10 --only embedded
 *
 * PostgreSQL: a scratch database on DATABASE_URL's server (default the local one), dropped afterwards.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { DEFAULT_SERVER_URL, log } from "./lib/bench-app.ts";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    idle: { type: "string", default: "5" },
    only: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  console.log("npm run bench:start -- [--runs 3] [--idle 5 (seconds)] [--only embedded|postgres]");
  process.exit(0);
}
const runs = Number(args.runs);
const idleMs = Number(args.idle) * 1000;
const root = join(import.meta.dirname, "..");

const commands = {
  "npm start (compiled)": [join(root, "scripts/start.mjs")],
  "tsx (before)": ["--import", "tsx", join(root, "apps/server/src/main.ts")],
};

interface Sample {
  readyMs: number;
  rssMiB: number;
}

const rssOf = (pid: number) => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
};

async function sample(command: string[], env: Record<string, string>): Promise<Sample> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const started = performance.now();
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: "warn", DATABASE_URL: "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 180_000) throw new Error(`not ready in 180 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const readyMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, idleMs));
    return { readyMs, rssMiB: rssOf(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function scratchPostgres() {
  const serverUrl = process.env.DATABASE_URL || DEFAULT_SERVER_URL;
  const name = `bench_start_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

// The build is brought up to date first, so "npm start" figures are the usual start, not a first build.
const buildStarted = performance.now();
await new Promise((resolve, reject) =>
  spawn(process.execPath, [join(root, "scripts/build.mjs"), "--force"], { cwd: root, stdio: "inherit" })
    .once("exit", (code) => (code === 0 ? resolve(undefined) : reject(new Error(`build: ${code}`))))
    .once("error", reject),
);
log(`build (forced): ${Math.round(performance.now() - buildStarted)} ms`);

const rows: { database: string; command: string; readyMs: number; rssMiB: number }[] = [];
const record = async (database: string, command: string, env: () => Record<string, string>) => {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    samples.push(await sample(commands[command as keyof typeof commands], env()));
    log(
      `${database}, ${command}: ${Math.round(samples.at(-1)!.readyMs)} ms, ${samples.at(-1)!.rssMiB.toFixed(0)} MiB`,
    );
  }
  rows.push({
    database,
    command,
    readyMs: median(samples.map((s) => s.readyMs)),
    rssMiB: median(samples.map((s) => s.rssMiB)),
  });
};

const dirs: string[] = [];
// One key for every start on the scratch PostgreSQL database: its key check value is the first start's.
const masterKey = randomBytes(32).toString("base64");
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-start-"));
  dirs.push(dir);
  return dir;
};
try {
  for (const command of Object.keys(commands)) {
    if (args.only !== "postgres") {
      await record("embedded, new data directory", command, () => ({ DATA_DIR: freshDir() }));
      const existing = freshDir();
      await sample(commands["npm start (compiled)"], { DATA_DIR: existing });
      await record("embedded, existing data directory", command, () => ({ DATA_DIR: existing }));
    }
    if (args.only !== "embedded") {
      const database = await scratchPostgres();
      try {
        await record("PostgreSQL", command, () => ({
          DATA_DIR: freshDir(),
          DATABASE_URL: database.url,
          LICENSING_MASTER_KEY: masterKey,
        }));
      } finally {
        await database.drop();
      }
    }
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

console.log(`\nMedians of ${runs} runs, RSS after ${idleMs / 1000} s idle:\n`);
console.log("| Database | Command | Ready | Idle RSS |\n| --- | --- | --- | --- |");
for (const row of rows)
  console.log(
    `| ${row.database} | ${row.command} | ${(row.readyMs / 1000).toFixed(2)} s | ${row.rssMiB.toFixed(0)} MiB |`,
  );
