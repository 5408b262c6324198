import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { needTool, tools } from "@licensing/api/testing/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EnvError, parseEnv } from "../env.ts";
import { startServer, type RunningServer } from "../server.ts";
import { capturedLog } from "../testing/captured-log.ts";
import { startPrivatePostgres, type PrivatePostgres } from "../testing/private-postgres.ts";

// A PostgreSQL cluster of the test's own, stopped and started (never the machine's shared server).
const postgresBin = needTool(tools.postgresServer, "the test of an instance started before PostgreSQL");

describe.skipIf(!postgresBin)("an instance started while PostgreSQL is down", () => {
  let postgres: PrivatePostgres;
  const dataDir = mkdtempSync(join(tmpdir(), "licensing-late-"));
  const envFor = (waitSeconds: string) =>
    parseEnv({
      PORT: "0",
      DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      DATABASE_WAIT_SECONDS: waitSeconds,
      LICENSING_MASTER_KEY: randomBytes(32).toString("base64"),
    });

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    await postgres.stop("fast");
  }, 120_000);
  afterAll(async () => {
    await postgres?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives up after DATABASE_WAIT_SECONDS with a message naming it, not an unhandled rejection", async () => {
    const { logger } = capturedLog();
    const failure = await startServer(envFor("0"), { logger }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EnvError);
    expect((failure as Error).message).toMatch(
      /^DATABASE_URL: the database did not answer within 0 s \(DATABASE_WAIT_SECONDS\)/,
    );
  });

  it("waits for it, warns, and starts once it answers; idle connections outlive a load balancer's", async () => {
    const { logger, lines } = capturedLog("info");
    const starting = startServer(envFor("600"), { logger });
    await vi.waitFor(() => expect(lines.join("")).toContain("waiting for the database to answer"), {
      timeout: 60_000,
      interval: 50,
    });
    await postgres.start();
    const server: RunningServer = await starting;
    try {
      expect(lines.join("")).toContain('"msg":"the database answers"');
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      // HTTP_KEEP_ALIVE_SECONDS (default 65): longer than nginx's and AWS ALB's 60 s idle timeout.
      expect(ready.headers.get("keep-alive")).toBe("timeout=65");
    } finally {
      await server.close();
    }
  }, 120_000);
});
