import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestClient } from "@licensing/api/testing";
import { needTool, tools } from "@licensing/api/testing/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEnv } from "../env.ts";
import { startServer, type RunningServer } from "../server.ts";
import { startPrivatePostgres, type PrivatePostgres } from "../testing/private-postgres.ts";
import { capturedLog } from "../testing/captured-log.ts";

interface Outcome {
  status: number;
  body: { id?: string; code?: string; message?: string; status?: number } | undefined;
  retryAfter: string | null;
}

/** A tRPC error as its HTTP adapter sends it (superjson). */
interface TrpcErrorWire {
  error: { json: { data: { code: string; appCode: string | null } } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Stops and starts a PostgreSQL cluster of its own (never the machine's shared server), so it runs in both
// CI passes; it needs the PostgreSQL binaries, which .ci/run installs.
const postgresBin = needTool(tools.postgresServer, "the PostgreSQL restart test");

describe.skipIf(!postgresBin)("PostgreSQL restarted under load", () => {
  let postgres: PrivatePostgres;
  let server: RunningServer;
  let operator: TestClient;
  const dataDir = mkdtempSync(join(tmpdir(), "licensing-restart-"));
  const { logger, lines: logLines } = capturedLog();
  let closed = false;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    server = await startServer(
      parseEnv({
        PORT: "0",
        DATA_DIR: dataDir,
        DATABASE_URL: postgres.url,
        LICENSING_MASTER_KEY: randomBytes(32).toString("base64"),
        BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com",
        BOOTSTRAP_OPERATOR_PASSWORD: "ops-password",
        RATE_LIMIT_PANEL: "1000000",
      }),
      { logger },
    );
    operator = new TestClient(server.url);
    await operator.login("ops@example.com", "ops-password");
  }, 120_000);

  afterAll(async () => {
    // The cluster goes first, so a server that cannot close leaves no PostgreSQL behind.
    await postgres?.destroy();
    if (!closed) await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // No step waits a set time and nothing is timed: the load meets the dead database until every worker has
  // been refused twice, and recovery is the first license issued after the restart, in the order answers
  // came; the waits only bound a hang (a loaded machine may take long, a broken pool never gets there).
  it("answers 503 in the error shape meanwhile, loses no committed write and recovers by itself", async () => {
    const company = await operator.api.companies.create({ body: { name: "Acme", slug: "acme" } });
    const template = await operator.api.templates.create({
      body: { name: "Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 30 },
    });
    const issue = { companyId: company.body.id, templateId: template.body.id };

    const outcomes: Outcome[] = [];
    const WORKERS = 6;
    const refusedBy = Array<number>(WORKERS).fill(0);
    let running = true;
    const worker = async (n: number) => {
      while (running) {
        const res = await operator.api.licenses.issue({ body: issue });
        outcomes.push({
          status: res.status,
          // The body as sent, a license or an error: the assertions below tell them apart.
          body: res.json as Outcome["body"],
          retryAfter: res.headers.get("retry-after"),
        });
        if (res.status !== 201) {
          refusedBy[n]!++;
          // Pacing, so six refused workers do not spin; nothing depends on its length.
          await sleep(20);
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, n) => worker(n));
    const successes = () => outcomes.filter((o) => o.status === 201).length;
    const patience = { timeout: 30_000, interval: 20 };
    await vi.waitFor(() => expect(successes()).toBeGreaterThanOrEqual(30), patience);

    await postgres.stop("fast");
    const down = {
      ready: await operator.get("/readyz"),
      // tRPC's HTTP answer (its status, its Retry-After) is the subject: a raw request.
      trpc: await operator.get("/trpc/auth.me"),
      rest: await operator.api.auth.me(),
    };
    // Keep the load on the dead database until every worker has met it twice.
    await vi.waitFor(() => expect(Math.min(...refusedBy)).toBeGreaterThanOrEqual(2), patience);

    await postgres.start();
    const answeredBeforeRestart = outcomes.length;
    // The same server, not restarted, answers again: readiness, then licenses issued.
    await vi.waitFor(async () => expect((await operator.get("/readyz")).status).toBe(200), patience);
    await vi.waitFor(
      () => expect(outcomes.slice(answeredBeforeRestart).some((o) => o.status === 201)).toBe(true),
      patience,
    );
    const after = successes();
    await vi.waitFor(() => expect(successes()).toBeGreaterThanOrEqual(after + 20), patience);
    running = false;
    await Promise.all(workers);

    // While the database was down, every kind of request said so in the spec's error shape.
    expect(down.ready.status).toBe(503);
    expect(down.rest.status).toBe(503);
    expect(down.rest.error).toEqual({
      code: "database.unavailable",
      message: expect.stringMatching(/database/i),
      status: 503,
    });
    expect(down.rest.headers.get("retry-after")).toBe("5");
    expect(down.trpc.status).toBe(503);
    expect(down.trpc.headers.get("retry-after")).toBe("5");
    expect((down.trpc.json as TrpcErrorWire).error.json.data).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      appCode: "database.unavailable",
    });

    // Every request under load was either issued or refused with a clear 503; none became a 500.
    const refused = outcomes.filter((o) => o.status !== 201);
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) {
      expect(outcome).toMatchObject({
        status: 503,
        body: { code: "database.unavailable", status: 503 },
        retryAfter: "5",
      });
    }
    // Every license the service confirmed is there after the restart.
    const issued = outcomes.filter((o) => o.status === 201).map((o) => o.body!.id!);
    const missing: string[] = [];
    for (const id of issued) {
      const res = await operator.api.licenses.get({ params: { id } });
      if (res.status !== 200) missing.push(`${id}: ${res.status}`);
    }
    expect(missing).toEqual([]);
    // The outage is in the log as warnings, not as unexpected errors with a stack.
    expect(logLines.some((l) => l.includes('"msg":"database unavailable"'))).toBe(true);
    expect(logLines.filter((l) => l.includes('"level":50'))).toEqual([]);

    // Every connection went back to the pool (none leaked by a request the restart cut): shutdown completes.
    // The race only turns a hang into a clear failure.
    const closing = server.close().then(() => "closed");
    const timeout = sleep(25_000).then(() => "still waiting for the pool");
    expect(await Promise.race([closing, timeout])).toBe("closed");
    closed = true;
  }, 120_000);
});
