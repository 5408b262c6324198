import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TestClient } from "@licensing/api/testing";
import { needTool, tools } from "@licensing/api/testing/tools";
import { afterAll, describe, expect, it } from "vitest";
import { startPrivatePostgres, type PrivatePostgres } from "../testing/private-postgres.ts";

// What `npm start` runs: the compiled server (built first when stale), in a process of its own.
const start = fileURLToPath(new URL("../../../../scripts/start.mjs", import.meta.url));
const OPERATOR = { email: "ops@example.com", password: "ops-password" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, [start], {
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

/**
 * Issues bulks of 200 to time one, then starts another and kills the server with SIGKILL a third of the
 * way through that time; after a restart on the same database the second bulk is there whole or not at all.
 */
async function killDuringBulk(env: Record<string, string>) {
  let server = await startServer(env);
  try {
    const operator = new TestClient(server.url);
    await operator.login(OPERATOR.email, OPERATOR.password);
    const company = await operator.api.companies.create({ body: { name: "Acme", slug: "acme" } });
    const template = await operator.api.templates.create({
      body: { name: "Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 30 },
    });
    const bulk = bulkOf(template.body.id, company.body.id);

    // The first bulk warms the code paths up; the second, timed, is what the killed one would take.
    for (let i = 0; i < 2; i++) {
      const res = await operator.api.licenses.bulkIssue({ body: bulk });
      expect(res.status).toBe(200);
      expect(res.body.succeeded).toBe(200);
    }
    const timed = Date.now();
    expect((await operator.api.licenses.bulkIssue({ body: bulk })).status).toBe(200);
    const duration = Date.now() - timed;

    let answered: number | undefined;
    const second = operator.api.licenses.bulkIssue({ body: bulk }).then(
      (res) => (answered = res.status),
      () => undefined,
    );
    await sleep(duration / 3);
    await kill9(server);
    await second;

    server = await startServer(env);
    const after = new TestClient(server.url);
    await after.login(OPERATOR.email, OPERATOR.password);
    const count = await licenseCount(after, company.body.id);
    // The kill came while the bulk was in flight: the database holds all of it or none of it.
    expect(answered, "the server answered the bulk before it was killed").toBeUndefined();
    expect([600, 800]).toContain(count);

    // The restarted server works as before: migrations, the operator, a new bulk, readiness.
    const third = await after.api.licenses.bulkIssue({ body: bulk });
    expect(third.status).toBe(200);
    expect(await licenseCount(after, company.body.id)).toBe(count + 200);
    expect((await after.get("/readyz")).status).toBe(200);
    expect(server.output()).not.toMatch(/"level":(50|60)/);
    return { answered, count };
  } finally {
    if (server.child.exitCode === null) await kill9(server);
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

  it("on the embedded database: the bulk is committed whole or not at all, and the restart is clean", async () => {
    await killDuringBulk({ DATA_DIR: tempDir() });
  }, 300_000);

  // A PostgreSQL cluster of the test's own, so that the database outlives the killed server.
  describe.skipIf(!hasPostgres)("on PostgreSQL", () => {
    let postgres: PrivatePostgres | undefined;
    afterAll(async () => postgres?.destroy());

    it("the bulk is committed whole or not at all, and the restart is clean", async () => {
      postgres = await startPrivatePostgres();
      await killDuringBulk({ DATA_DIR: tempDir(), DATABASE_URL: postgres.url });
    }, 300_000);
  });
});
