import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestClient } from "@licensing/api/testing";
import { needTool, tools } from "@licensing/api/testing/tools";
import { createManualClock, REPLICA_RETRY_AFTER_MS, REPLICA_WARNING_INTERVAL_MS } from "@licensing/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEnv } from "../env.ts";
import { startServer, type RunningServer } from "../server.ts";
import {
  startPrivatePostgres,
  startPrivateStandby,
  type PrivatePostgres,
} from "../testing/private-postgres.ts";
import { capturedLog } from "../testing/captured-log.ts";

// A primary and a streaming standby of the test's own (pg_basebackup from the primary into a temporary
// directory, started on another port, removed afterwards); the machine's shared server is not touched.
const postgresBin = needTool(tools.postgresServer, "the read replica test");

// Both count their statements: the standby's own view shows which reads it served.
const settings = ["-c shared_preload_libraries=pg_stat_statements"];
const DEFAULT_MAX_LAG_MS = 5_000;

describe.skipIf(!postgresBin)("a read replica (DATABASE_READ_URL)", () => {
  let primary: PrivatePostgres;
  let standby: PrivatePostgres;
  let server: RunningServer;
  let operator: TestClient;
  let primarySql: pg.Client;
  const clock = createManualClock(new Date());
  const dataDir = mkdtempSync(join(tmpdir(), "licensing-replica-"));
  const { logger, lines: logLines } = capturedLog();
  const replicaWarnings = () => logLines.filter((line) => line.includes("read replica")).length;

  const onStandby = async <T>(query: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: standby.url });
    await client.connect();
    try {
      return (await client.query(query)).rows as T[];
    } finally {
      await client.end();
    }
  };
  /** Searches of the licenses table the standby has run (its pg_stat_statements). */
  const standbySearches = async () =>
    (
      await onStandby<{ n: number }>(
        `select coalesce(sum(calls), 0)::int as n from pg_stat_statements
         where query ilike 'select%from "licenses"%'`,
      )
    )[0]!.n;
  /** Waits (bounded) until the standby has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const { rows } = await primarySql.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn");
    await vi.waitFor(
      async () => {
        const [row] = await onStandby<{ ok: boolean }>(
          `select pg_last_wal_replay_lsn() >= '${rows[0]!.lsn}'::pg_lsn as ok`,
        );
        if (!row?.ok) throw new Error("the standby has not replayed the primary's writes yet");
      },
      { timeout: 60_000, interval: 50 },
    );
  };
  let issued = 0;
  const issue = async () => {
    const n = ++issued;
    const company = await operator.api.companies.create({ body: { name: `Acme ${n}`, slug: `acme-${n}` } });
    const template = await operator.api.templates.create({
      body: {
        name: `Editor ${n}`,
        productCode: `EDITOR${n}`,
        defaultOfflineDays: 7,
        defaultValidityDays: 30,
      },
    });
    const res = await operator.api.licenses.issue({
      body: { companyId: company.body.id, templateId: template.body.id },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const search = (client: TestClient, key: string) => client.api.licenses.search({ query: { search: key } });

  beforeAll(async () => {
    primary = await startPrivatePostgres({ settings });
    primarySql = new pg.Client({ connectionString: primary.url });
    await primarySql.connect();
    await primarySql.query("create extension if not exists pg_stat_statements");
    standby = await startPrivateStandby(primary, { settings });
    server = await startServer(
      parseEnv({
        PORT: "0",
        DATA_DIR: dataDir,
        DATABASE_URL: primary.url,
        DATABASE_READ_URL: standby.url,
        LICENSING_MASTER_KEY: randomBytes(32).toString("base64"),
        BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com",
        BOOTSTRAP_OPERATOR_PASSWORD: "ops-password",
        RATE_LIMIT_PANEL: "1000000",
      }),
      { logger, clock },
    );
    operator = new TestClient(server.url);
    await operator.login("ops@example.com", "ops-password");
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await primarySql?.end();
    await standby?.destroy();
    await primary?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves license searches from the replica once the caller's own writes are old enough", async () => {
    const license = await issue();
    clock.advance(2 * DEFAULT_MAX_LAG_MS);
    await caughtUp();
    const before = await standbySearches();
    const res = await search(operator, license.licenseKey);
    expect(res.status).toBe(200);
    expect(res.body.items.map((l) => l.id)).toEqual([license.id]);
    expect(await standbySearches()).toBeGreaterThan(before);
    expect(replicaWarnings()).toBe(0);
  });

  it("answers a read right after the same session's write from the primary, with replay paused", async () => {
    await onStandby("select pg_wal_replay_pause()");
    try {
      const license = await issue();
      // The standby does not have it: what finds it is the primary.
      expect(await onStandby(`select id from licenses where id = '${license.id}'`)).toEqual([]);
      const before = await standbySearches();
      const res = await search(operator, license.licenseKey);
      expect(res.status).toBe(200);
      expect(res.body.items.map((l) => l.id)).toEqual([license.id]);
      expect(await standbySearches()).toBe(before);
    } finally {
      await onStandby("select pg_wal_replay_resume()");
    }
  });

  it("leaves a replica that lags beyond DATABASE_READ_MAX_LAG_SECONDS to the primary", async () => {
    const license = await issue();
    clock.advance(REPLICA_WARNING_INTERVAL_MS + 1_000);
    await caughtUp();
    await onStandby("select pg_wal_replay_pause()");
    try {
      // A write the standby receives and does not replay; its lag then grows with the database's clock.
      await primarySql.query("create table replica_lag_probe (id int)");
      await vi.waitFor(
        async () => {
          const [row] = await onStandby<{ lag: number }>(
            `select extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as lag
             where pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn()`,
          );
          if (!row || row.lag * 1000 <= DEFAULT_MAX_LAG_MS) throw new Error("the standby does not lag yet");
        },
        { timeout: 60_000, interval: 200 },
      );
      const warningsBefore = replicaWarnings();
      const before = await standbySearches();
      const res = await search(operator, license.licenseKey);
      expect(res.status).toBe(200);
      expect(res.body.items.map((l) => l.id)).toEqual([license.id]);
      expect(await standbySearches()).toBe(before);
      expect(logLines.slice(-1)[0]).toContain("read replica lags behind");
      expect(replicaWarnings() - warningsBefore).toBe(1);
    } finally {
      await onStandby("select pg_wal_replay_resume()");
      await primarySql.query("drop table if exists replica_lag_probe");
    }
  });

  it("falls back to the primary when the replica is down, with one warning a minute, and returns to it", async () => {
    const license = await issue();
    clock.advance(REPLICA_WARNING_INTERVAL_MS + 1_000);
    await caughtUp();
    await standby.stop("fast");
    const warningsBefore = replicaWarnings();
    for (let i = 0; i < 20; i++) {
      const res = await search(operator, license.licenseKey);
      expect(res.status).toBe(200);
      expect(res.body.items.map((l) => l.id)).toEqual([license.id]);
    }
    expect(replicaWarnings() - warningsBefore).toBe(1);
    // Tried again after a while: still down, still answered, no second warning within the minute.
    clock.advance(REPLICA_RETRY_AFTER_MS + 1_000);
    for (let i = 0; i < 5; i++) expect((await search(operator, license.licenseKey)).status).toBe(200);
    expect(replicaWarnings() - warningsBefore).toBe(1);
    // A minute after the first warning, the next failure warns again.
    clock.advance(REPLICA_WARNING_INTERVAL_MS - REPLICA_RETRY_AFTER_MS);
    expect((await search(operator, license.licenseKey)).status).toBe(200);
    expect(replicaWarnings() - warningsBefore).toBe(2);

    // Back up: once the retry interval has passed, the replica serves searches again.
    await standby.start();
    await caughtUp();
    clock.advance(REPLICA_RETRY_AFTER_MS + 1_000);
    const before = await standbySearches();
    const res = await search(operator, license.licenseKey);
    expect(res.status).toBe(200);
    expect(res.body.items.map((l) => l.id)).toEqual([license.id]);
    expect(await standbySearches()).toBeGreaterThan(before);
  });
});
