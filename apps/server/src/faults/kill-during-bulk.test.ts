import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { TestClient } from "@licensing/api/testing";
import { needTool, tools } from "@licensing/api/testing/tools";
import { createDatabase } from "@licensing/db";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startPrivatePostgres, type PrivatePostgres } from "../testing/private-postgres.ts";

// What `npm start` runs: the compiled server (built first when stale), in a process of its own.
const start = fileURLToPath(new URL("../../../../scripts/start.mjs", import.meta.url));
const stallPreload = fileURLToPath(new URL("../testing/stall-after-licenses-insert.mjs", import.meta.url));
const OPERATOR = { email: "ops@example.com", password: "ops-password" };

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
}

async function startServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, start], {
    env: {
      ...process.env,
      PORT: "0",
      LOG_LEVEL: "info",
      DATABASE_URL: "",
      BOOTSTRAP_OPERATOR_EMAIL: OPERATOR.email,
      BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR.password,
      RATE_LIMIT_PANEL: "100000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000);
    child.stdout!.on("data", () => {
      const match = /"port":(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

async function kill9(server: Server) {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGKILL");
  await exited;
}

async function licenseCount(client: TestClient, companyId: string) {
  const res = await client.api.licenses.search({ query: { companyId, pageSize: 1 } });
  expect(res.status).toBe(200);
  return res.body.total;
}

const bulkOf = (templateId: string, companyId: string) => ({
  templateId,
  items: Array.from({ length: 200 }, () => ({ companyId })),
});

/** A bound on a hang, never a claim about speed. */
const patience = { timeout: 60_000, interval: 50 };

/**
 * What holds a bulk inside its transaction until the server is killed: the kill lands there by
 * construction, not after a guessed share of a timed bulk.
 */
interface Stall {
  /** Node options of the server to be killed. */
  nodeArgs: string[];
  /** Once the server is up: anything to set before the bulk is sent. */
  arm(): Promise<void>;
  /** Resolves when the bulk's transaction is open and can go no further. */
  reached(server: Server): Promise<void>;
  /** After the kill (and again, harmlessly, at the end): lets go of what held it. */
  release(): Promise<void>;
}

/** On the embedded database: the preload stalls the transaction after its insert (see the file). */
const stallAfterInsert = (): Stall => ({
  nodeArgs: ["--import", pathToFileURL(stallPreload).href],
  arm: async () => {},
  reached: (server) =>
    vi.waitFor(() => expect(server.output()).toContain("stall-after-licenses-insert:"), patience),
  release: async () => {},
});

/**
 * On PostgreSQL: a connection of the test's own holds the licenses table against writes, so the bulk
 * waits at its insert, its transaction open, until that connection lets go (after the kill).
 */
function stallAtInsert(url: string): Stall {
  const holder = createDatabase({ url, maxConnections: 2 });
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let holding: Promise<void> | undefined;
  return {
    nodeArgs: [],
    async arm() {
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      holding = holder.db.transaction(async (tx) => {
        await tx.execute(sql`lock table licenses in exclusive mode`);
        locked();
        await released;
      });
      await Promise.race([isLocked, holding]);
    },
    reached: () =>
      vi.waitFor(async () => {
        const waiting = await holder.db.execute(
          sql`select count(*)::int as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock'
                 and query ilike 'insert into "licenses"%'`,
        );
        expect((waiting as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(1);
      }, patience),
    async release() {
      letGo();
      await holding;
      await holder.close().catch(() => {});
    },
  };
}

/**
 * Sends a bulk of 200, kills the server with SIGKILL while the bulk's transaction is held open, and
 * restarts it on the same database: the bulk left nothing, and the restarted server works as before.
 */
async function killDuringBulk(env: Record<string, string>, stall: Stall) {
  let server = await startServer(env, stall.nodeArgs);
  try {
    const operator = new TestClient(server.url);
    await operator.login(OPERATOR.email, OPERATOR.password);
    const company = await operator.api.companies.create({ body: { name: "Acme", slug: "acme" } });
    const template = await operator.api.templates.create({
      body: { name: "Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 30 },
    });
    const bulk = bulkOf(template.body.id, company.body.id);

    await stall.arm();
    let answered: number | undefined;
    const killed = operator.api.licenses.bulkIssue({ body: bulk }).then(
      (res) => (answered = res.status),
      () => undefined,
    );
    await stall.reached(server);
    await kill9(server);
    await killed;
    await stall.release();

    server = await startServer(env);
    const after = new TestClient(server.url);
    await after.login(OPERATOR.email, OPERATOR.password);
    // Killed inside its transaction, before the commit: none of the bulk is there, and it got no answer.
    expect(answered, "the server answered the bulk before it was killed").toBeUndefined();
    expect(await licenseCount(after, company.body.id)).toBe(0);

    // The restarted server works as before: migrations, the operator, a new bulk, readiness.
    const third = await after.api.licenses.bulkIssue({ body: bulk });
    expect(third.status).toBe(200);
    expect(third.body.succeeded).toBe(200);
    expect(await licenseCount(after, company.body.id)).toBe(200);
    expect((await after.get("/readyz")).status).toBe(200);
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  } finally {
    if (server.child.exitCode === null) await kill9(server);
    await stall.release();
  }
}

const hasPostgres = needTool(tools.postgresServer, "the kill -9 test on PostgreSQL");

describe("kill -9 of the server during a bulk issue", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "licensing-kill-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("on the embedded database: a bulk killed before its commit leaves nothing, and the restart is clean", async () => {
    await killDuringBulk({ DATA_DIR: tempDir() }, stallAfterInsert());
  }, 300_000);

  // A PostgreSQL cluster of the test's own, so that the database outlives the killed server.
  describe.skipIf(!hasPostgres)("on PostgreSQL", () => {
    let postgres: PrivatePostgres | undefined;
    afterAll(async () => postgres?.destroy());

    it("a bulk killed before its commit leaves nothing, and the restart is clean", async () => {
      postgres = await startPrivatePostgres();
      await killDuringBulk(
        { DATA_DIR: tempDir(), DATABASE_URL: postgres.url, LICENSING_ALLOW_GENERATED_MASTER_KEY: "true" },
        stallAtInsert(postgres.url),
      );
    }, 300_000);
  });
});
