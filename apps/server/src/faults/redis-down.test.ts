import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestClient } from "@licensing/api/testing";
import { needTool, tools } from "@licensing/api/testing/tools";
import { createManualClock, MINUTE } from "@licensing/core";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEnv } from "../env.ts";
import { startServer, type RunningServer } from "../server.ts";
import { capturedLog } from "../testing/captured-log.ts";

// Needs the redis-server program, which .ci/run installs.
const redisServer = needTool(tools.redisServer, "the Redis outage test");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis of this test's own (never the shared one), which it kills and starts again on the same port. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    redisServer!,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  // Polls the port until the server listens; the deadline only bounds a hang.
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = createServer().listen(port, "127.0.0.1");
      socket.once("listening", () => socket.close(() => resolve(false)));
      socket.once("error", () => resolve(true));
    });
    if (up) return child;
    await sleep(50);
  }
  throw new Error("redis-server did not start");
}

describe.skipIf(!redisServer)("Redis unavailable", () => {
  const clock = createManualClock(new Date());
  const { logger, lines: logLines } = capturedLog();
  const dataDir = mkdtempSync(join(tmpdir(), "licensing-redis-"));
  let port: number;
  let redis: ChildProcess;
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    database = await createTestDatabase();
    server = await startServer(
      parseEnv({
        PORT: "0",
        DATA_DIR: dataDir,
        REDIS_URL: `redis://127.0.0.1:${port}`,
        RATE_LIMIT_AUTH: "3",
        BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com",
        BOOTSTRAP_OPERATOR_PASSWORD: "ops-password",
      }),
      { database, clock, logger },
    );
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    redis?.kill("SIGKILL");
    await database?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const warnings = () => logLines.filter((l) => l.includes("Redis is unavailable"));

  it("lets requests through with one warning a minute, and limits again when Redis is back", async () => {
    const anonymous = new TestClient(server.url);
    const me = () => anonymous.api.auth.me();

    // Redis up: the fourth request of the minute is refused.
    expect([(await me()).status, (await me()).status, (await me()).status]).toEqual([401, 401, 401]);
    expect((await me()).status).toBe(429);

    redis.kill("SIGKILL");
    await new Promise((resolve) => redis.once("exit", resolve));

    // Redis down: every request is answered as if there were no limit. None waits for Redis: it stays down
    // until after them all (a queued command would wait for its return, and this test would hang).
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await me()).status);
    expect(statuses).toEqual(Array(10).fill(401));
    // Everything else keeps working.
    const operator = new TestClient(server.url);
    await operator.login("ops@example.com", "ops-password");
    expect((await operator.api.auth.me()).status).toBe(200);
    expect((await operator.get("/readyz")).status).toBe(200);

    // One warning for all of those requests; the next comes a minute later.
    expect(warnings()).toHaveLength(1);
    expect(JSON.parse(warnings()[0]!)).toMatchObject({ level: 40 });
    clock.advance(MINUTE + 1000);
    expect((await me()).status).toBe(401);
    expect(warnings()).toHaveLength(2);
    // The failure it reports is the client refusing the command at once (no offline queue), not the command
    // timeout: what keeps a request from waiting for Redis, shown by its kind rather than by a stopwatch.
    expect(JSON.parse(warnings()[1]!)).toMatchObject({
      err: { message: expect.stringMatching(/enableOfflineQueue/) },
    });
    // The second warning counts the failures since the first: the nine /me after it and the one just sent.
    expect(JSON.parse(warnings()[1]!).failures).toBeGreaterThanOrEqual(10);
    expect(logLines.filter((l) => l.includes('"level":50'))).toEqual([]);

    // Redis back (empty, as after a restart): the limits count again once the client has reconnected (on
    // its own retry timer; the wait only bounds a hang).
    redis = await startRedis(port);
    await vi.waitFor(async () => expect((await me()).status).toBe(429), { timeout: 20_000, interval: 100 });
  }, 120_000);
});
