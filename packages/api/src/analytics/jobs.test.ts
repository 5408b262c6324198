import { analytics, DAY } from "@licensing/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLicensedCompany,
  issueLicense,
  signedPost,
  type IssuedLicense,
} from "../testing/client-api.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";

// Heartbeat partitions and retention with a short HEARTBEAT_RETENTION_DAYS, on dates no partition of the
// migration covers, so every partition this suite sees is one the job made.
let app: TestApp;
let license: IssuedLicense;
let activationId: string;
let device: TestClient;
beforeAll(async () => {
  app = await startTestApp({ analytics: { heartbeatRetentionDays: 60 } });
  app.clock.set(new Date("2031-01-15T12:00:00Z"));
  const operator = await app.client({ signIn: true });
  const target = await createLicensedCompany(operator);
  license = await issueLicense(operator, target, { expiresAt: "2033-01-01T00:00:00Z", hwBinding: "none" });
  device = await app.client();
  const res = await device.api.client.activate({ body: { licenseKey: license.licenseKey } });
  expect(res.status).toBe(200);
  activationId = res.body.activationId;
});
afterAll(() => app.close());

const beat = async () => {
  const body = { licenseKey: license.licenseKey, activationId };
  const res = await signedPost(device, app.clock.now(), "/api/v1/client/heartbeat", body);
  expect(res.status).toBe(200);
};
/** Where each heartbeat record lives: occurredAt → table. */
const placement = async () => {
  const { rows } = (await app.deps.db.execute(
    sql`select occurred_at, tableoid::regclass::text as part from heartbeat_records order by occurred_at`,
  )) as unknown as { rows: Array<{ occurred_at: string | Date; part: string }> };
  return rows.map((row) => [new Date(row.occurred_at).toISOString(), row.part]);
};
const partitions = async () => {
  const { rows } = (await app.deps.db.execute(
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = 'heartbeat_records'::regclass order by 1`,
  )) as unknown as { rows: Array<{ name: string }> };
  return rows.map((row) => row.name);
};
const panelHeartbeats = async () => {
  const operator = await app.client({ signIn: true });
  const res = await operator.api.activations.heartbeats({ params: { id: license.id } });
  expect(res.status).toBe(200);
  return res.body.map((h) => h.occurredAt);
};

describe("heartbeat partitions", () => {
  it("a heartbeat of a month without a partition lands in the default partition, and moves when the job creates it", async () => {
    await beat();
    expect(await placement()).toEqual([["2031-01-15T12:00:00.000Z", "heartbeat_records_default"]]);

    const run = await analytics.maintainHeartbeatPartitions(app.deps);
    expect(run.created).toEqual([
      "heartbeat_records_p203101",
      "heartbeat_records_p203102",
      "heartbeat_records_p203103",
    ]);
    // The migration's partitions (months of today's real date) ended more than 60 days before 2031.
    expect(run.dropped.length).toBeGreaterThan(0);
    expect(run.dropped.every((name) => name < "heartbeat_records_p2031")).toBe(true);
    expect(await partitions()).toEqual([
      "heartbeat_records_default",
      "heartbeat_records_p203101",
      "heartbeat_records_p203102",
      "heartbeat_records_p203103",
    ]);
    expect(await placement()).toEqual([["2031-01-15T12:00:00.000Z", "heartbeat_records_p203101"]]);
    expect(await panelHeartbeats()).toEqual(["2031-01-15T12:00:00.000Z"]);

    expect(await analytics.maintainHeartbeatPartitions(app.deps)).toEqual({ created: [], dropped: [] });
  });

  it("keeps the months ahead ready as the clock moves, so heartbeats go straight to their month", async () => {
    app.clock.set(new Date("2031-03-20T08:00:00Z"));
    await beat();
    expect((await placement()).at(-1)).toEqual(["2031-03-20T08:00:00.000Z", "heartbeat_records_p203103"]);
    // Cutoff 2031-01-19: January ends after it, so nothing is dropped yet.
    expect(await analytics.maintainHeartbeatPartitions(app.deps)).toEqual({
      created: ["heartbeat_records_p203104", "heartbeat_records_p203105"],
      dropped: [],
    });
  });

  it("drops a month once all of it is older than HEARTBEAT_RETENTION_DAYS; the rollups keep its usage", async () => {
    // Roll up through 2031-03-19 first: January's heartbeat is in usage_daily from then on.
    expect(await analytics.rollupUsage(app.deps)).toBe(64);
    app.clock.set(new Date("2031-04-02T00:00:00Z"));
    // Cutoff 2031-02-01T00:00Z: January ends exactly then.
    expect(await analytics.maintainHeartbeatPartitions(app.deps)).toEqual({
      created: ["heartbeat_records_p203106"],
      dropped: ["heartbeat_records_p203101"],
    });
    expect(await panelHeartbeats()).toEqual(["2031-03-20T08:00:00.000Z"]);
    const operator = await app.client({ signIn: true });
    const usage = await operator.api.analytics.usage({ query: { from: "2031-01-15", to: "2031-01-16" } });
    expect(usage.body.heartbeats).toEqual([
      { date: "2031-01-15", count: 1 },
      { date: "2031-01-16", count: 0 },
    ]);
    expect(usage.body.activations[0]).toEqual({ date: "2031-01-15", count: 1 });
  });

  it("deletes default-partition rows older than the retention window", async () => {
    await app.deps.db.execute(
      sql`insert into heartbeat_records (activation_id, license_id, occurred_at)
          values (${activationId}, ${license.id}, '2020-06-01T00:00:00Z'), (${activationId}, ${license.id}, '2040-06-01T00:00:00Z')`,
    );
    await analytics.maintainHeartbeatPartitions(app.deps);
    const rows = await placement();
    expect(rows.filter(([, part]) => part === "heartbeat_records_default")).toEqual([
      ["2040-06-01T00:00:00.000Z", "heartbeat_records_default"],
    ]);
  });
});

describe("usage rollup job", () => {
  it("two runs at once write each day once", async () => {
    app.clock.set(new Date(app.clock.now().getTime() + 10 * DAY));
    const [a, b] = await Promise.all([analytics.rollupUsage(app.deps), analytics.rollupUsage(app.deps)]);
    // From 2031-03-20 through 2031-04-11.
    expect(a + b).toBe(23);
    expect(await analytics.rolledThrough(app.deps.db)).toBe("2031-04-11");
    const { rows } = (await app.deps.db.execute(
      sql`select count(*)::int as n, count(distinct (day, company_id))::int as d from usage_daily`,
    )) as unknown as { rows: Array<{ n: number; d: number }> };
    expect(rows[0]!.n).toBe(rows[0]!.d);
  });
});
