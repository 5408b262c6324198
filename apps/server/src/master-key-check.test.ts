import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestClient } from "@licensing/api/testing";
import { tables } from "@licensing/db";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { pino } from "pino";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.ts";
import { generateMasterKey } from "./master-key-rotation.ts";
import { startServer, type RunningServer } from "./server.ts";
import { startProcess, StartFailed, stopProcess, type StartedProcess } from "./testing/start-process.ts";

// The master key check value (decision 0053): the first start on a database stores a value sealed under
// its key, and an instance whose key does not open it refuses to start, naming the variable.
const OPS = { BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com", BOOTSTRAP_OPERATOR_PASSWORD: "ops-password" };
const MISMATCH = "LICENSING_MASTER_KEY: this key does not open the key check value stored in the database";
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "licensing-key-check-"));
  dirs.push(dir);
  return dir;
};
const databases: TestDatabase[] = [];
/** A database with no data; `migrate: false` leaves even the tables to the first start. */
const emptyDatabase = async (migrate = true) => {
  const database = await createTestDatabase({ migrate });
  databases.push(database);
  return database;
};
afterAll(async () => {
  await Promise.all(databases.map((d) => d.dispose()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const silent = pino({ level: "silent" });
const envWith = (vars: Record<string, string>) =>
  parseEnv({ PORT: "0", DATA_DIR: tempDir(), ...OPS, ...vars });

describe("the master key check value, instances in this process", () => {
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("of two instances started together on an empty database with different keys, exactly one starts; the same key starts", async () => {
    const database = await emptyDatabase();
    const [keyA, keyB] = [generateMasterKey(), generateMasterKey()];
    const outcomes = await Promise.allSettled(
      [keyA, keyB].map((key) =>
        startServer(envWith({ LICENSING_MASTER_KEY: key }), { database, logger: silent }),
      ),
    );
    const started = outcomes.filter((o) => o.status === "fulfilled").map((o) => o.value);
    const refused = outcomes.filter((o) => o.status === "rejected").map((o) => o.reason as Error);
    servers.push(...started);
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(EnvError);
    expect(refused[0]!.message).toContain(MISMATCH);

    const winner = outcomes[0]!.status === "fulfilled" ? keyA : keyB;
    const loser = winner === keyA ? keyB : keyA;
    servers.push(await startServer(envWith({ LICENSING_MASTER_KEY: winner }), { database, logger: silent }));
    await expect(
      startServer(envWith({ LICENSING_MASTER_KEY: loser }), { database, logger: silent }),
    ).rejects.toThrow(MISMATCH);
    expect(await database.db.select().from(tables.masterKeyCheck)).toHaveLength(1);
  }, 120_000);

  it("an upgraded database gets its check value from the key its secrets open, and refuses another key", async () => {
    const database = await emptyDatabase();
    const key = generateMasterKey();
    const first = await startServer(envWith({ LICENSING_MASTER_KEY: key }), { database, logger: silent });
    const operator = new TestClient(first.url);
    await operator.login(OPS.BOOTSTRAP_OPERATOR_EMAIL, OPS.BOOTSTRAP_OPERATOR_PASSWORD);
    const template = await operator.api.templates.create({
      body: { name: "Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 30 },
    });
    expect(template.status).toBe(201);
    await first.close();
    // As a database of the previous release: sealed values, no check value.
    await database.db.delete(tables.masterKeyCheck);

    await expect(
      startServer(envWith({ LICENSING_MASTER_KEY: generateMasterKey() }), { database, logger: silent }),
    ).rejects.toThrow("LICENSING_MASTER_KEY: this key does not open the signing keys");
    expect(await database.db.select().from(tables.masterKeyCheck)).toHaveLength(0);

    servers.push(await startServer(envWith({ LICENSING_MASTER_KEY: key }), { database, logger: silent }));
    expect(await database.db.select().from(tables.masterKeyCheck)).toHaveLength(1);
  }, 120_000);

  it("refuses a generated key when DATABASE_URL is set, unless asked for, and names the variable", async () => {
    await expect(
      startServer(parseEnv({ PORT: "0", DATA_DIR: tempDir(), DATABASE_URL: "postgres://127.0.0.1:1/none" })),
    ).rejects.toThrow(
      "LICENSING_MASTER_KEY: required when DATABASE_URL is set; every instance on one database needs the same key",
    );
  });
});

// The case the issue found, as an operator meets it: two `npm start` processes on one empty PostgreSQL
// database, each with a development key of its own.
describe.skipIf(!process.env.TEST_DATABASE_URL)("the master key check value, npm start on PostgreSQL", () => {
  const running: StartedProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map(stopProcess));
  });
  const refusal = (env: Record<string, string>) =>
    startProcess(env).then(
      (started) => {
        running.push(started);
        throw new Error(`started, but should have refused:\n${started.output()}`);
      },
      (error: unknown) => {
        if (!(error instanceof StartFailed)) throw error;
        return error;
      },
    );

  it("without LICENSING_MASTER_KEY refuses to start, unless LICENSING_ALLOW_GENERATED_MASTER_KEY=true", async () => {
    const { url } = await emptyDatabase(false);
    const refused = await refusal({ DATABASE_URL: url!, DATA_DIR: tempDir(), LICENSING_MASTER_KEY: "" });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("LICENSING_MASTER_KEY: required when DATABASE_URL is set");
    expect(refused.output).toContain("LICENSING_ALLOW_GENERATED_MASTER_KEY=true");
  }, 180_000);

  it("a second instance with another generated key refuses to start; one with the same key starts and serves", async () => {
    const { url } = await emptyDatabase(false);
    const env = {
      DATABASE_URL: url!,
      LICENSING_MASTER_KEY: "",
      LICENSING_ALLOW_GENERATED_MASTER_KEY: "true",
      ...OPS,
    };
    const firstDir = tempDir();
    const first = await startProcess({ ...env, DATA_DIR: firstDir });
    running.push(first);
    expect(first.output()).toContain("stored the master key check value");

    const second = await refusal({ ...env, DATA_DIR: tempDir() });
    expect(second.code).toBe(1);
    expect(second.output).toContain(MISMATCH);
    expect(second.output).toContain(
      "LICENSING_MASTER_KEY is unset, so this instance used the development key",
    );

    // The same key, given explicitly (the first instance's development key file): it starts and serves.
    const key = readFileSync(join(firstDir, "master.key"), "utf8");
    const third = await startProcess({ DATABASE_URL: url!, LICENSING_MASTER_KEY: key, DATA_DIR: tempDir() });
    running.push(third);
    expect(third.output()).not.toContain("stored the master key check value");
    const operator = new TestClient(third.url);
    await operator.login(OPS.BOOTSTRAP_OPERATOR_EMAIL, OPS.BOOTSTRAP_OPERATOR_PASSWORD);
    expect((await fetch(`${third.url}/readyz`)).status).toBe(200);
  }, 240_000);
});
