import { randomBytes, randomUUID } from "node:crypto";
import { operations } from "@licensing/api";
import { createLicensedCompany, issueLicense, signedPost, TestClient } from "@licensing/api/testing";
import { needTool, SKIP_LINE, tools } from "@licensing/api/testing/tools";
import { startWebhookReceiver, type WebhookReceiver } from "@licensing/api/testing/webhook-receiver";
import { EVENT_TYPES } from "@licensing/contracts";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { roundRobin, startInstances, stopAll, type Instance } from "../testing/instances.ts";

/**
 * Issue 25 §1: two real server processes (`npm start`, the compiled JavaScript) on one PostgreSQL database
 * and one Redis, with requests spread over both as a round-robin load balancer spreads them. The jobs run on
 * their timers in both processes (SWEEP_INTERVAL_SECONDS and ANALYTICS_INTERVAL_SECONDS shortened to one
 * second), so every sweep below is raced by two instances. Waits poll for a condition under a generous
 * bound (a hang, never a claim about speed); nothing asserts how long anything took.
 */

const OPERATOR = { email: "ops@example.com", password: "ops-password-1" };
/** Shared by both instances, as a deployment shares it. */
const MASTER_KEY = randomBytes(32).toString("base64");
const WEBHOOK_SECRET = "multi-instance-webhook-secret";
const patience = { timeout: 90_000, interval: 100 };

// PostgreSQL only: the embedded database is one process's. CI's PostgreSQL pass sets TEST_DATABASE_URL.
const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl)
  console.warn(
    `${SKIP_LINE}the several-instances test: it runs on PostgreSQL only. To enable: set TEST_DATABASE_URL (CI's PostgreSQL pass does).`,
  );
const redisUrl = databaseUrl ? needTool(tools.redis, "the several-instances test") : null;

type Row = Record<string, unknown>;

describe.skipIf(!databaseUrl || !redisUrl)("two server processes on one database and one Redis", () => {
  let database: TestDatabase;
  let instances: Instance[];
  let receiver: WebhookReceiver;
  /** A signed-in operator per instance (one session, made on A, used on both). */
  let operators: TestClient[];
  let target: { companyId: string; templateId: string };
  let nextOperator: () => TestClient;
  /** What this run measured, printed at the end (docs/operations.md quotes a run). */
  const figures: string[] = [];

  const rows = async <T extends Row>(query: SQL) =>
    ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const count = async (query: SQL) => Number((await rows<{ n: number }>(query))[0]!.n);
  const clientPath = (op: keyof typeof operations.client) => `/api/v1${operations.client[op].path}`;

  beforeAll(async () => {
    // A database of this run's own (lic_test_…), dropped afterwards; the instances migrate it together.
    database = await createTestDatabase({ migrate: false });
    receiver = await startWebhookReceiver({ secret: WEBHOOK_SECRET, now: () => new Date() });
    instances = await startInstances(2, {
      DATABASE_URL: database.url!,
      REDIS_URL: redisUrl!,
      LICENSING_MASTER_KEY: MASTER_KEY,
      PUBLIC_BASE_URL: "http://licensing.test",
      TRUST_PROXY: "loopback",
      BOOTSTRAP_OPERATOR_EMAIL: OPERATOR.email,
      BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR.password,
      RATE_LIMIT_PANEL: "100000",
      RATE_LIMIT_CLIENT: "100000",
      RATE_LIMIT_AUTH: "20",
      SWEEP_INTERVAL_SECONDS: "1",
      ANALYTICS_INTERVAL_SECONDS: "1",
      WEBHOOK_ALLOW_PRIVATE: "true",
      LOG_LEVEL: "info",
    });
    const first = new TestClient(instances[0]!.url);
    await first.login(OPERATOR.email, OPERATOR.password);
    operators = instances.map((instance) => {
      const client = new TestClient(instance.url);
      client.cookie = first.cookie;
      return client;
    });
    nextOperator = roundRobin(operators);
    const endpoint = await operators[1]!.api.webhooks.create({
      body: { url: receiver.url, secret: WEBHOOK_SECRET, description: "", events: [...EVENT_TYPES] },
    });
    expect(endpoint.status).toBe(201);
    target = await createLicensedCompany(operators[0]!);
  }, 300_000);

  afterAll(async () => {
    if (figures.length > 0) console.info(`several instances:\n  ${figures.join("\n  ")}`);
    await stopAll(instances ?? []);
    await receiver?.close();
    await database?.dispose();
  });

  it("40 concurrent activations on a 3-seat license, alternating instances: exactly 3 succeed", async () => {
    const license = await issueLicense(nextOperator(), target, {
      config: JSON.stringify({ features: [], limits: { maxSeats: 3 } }),
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new TestClient(instances[i % 2]!.url).api.client.activate({
          body: { licenseKey: license.licenseKey, hwFingerprint: `seat-race-${i}` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(37);
    expect(
      await count(sql`select count(*)::int as n from activations
                       where license_id = ${license.id} and status = 'active'`),
    ).toBe(3);
  }, 60_000);

  it("50 concurrent lease acquires on 5 floating seats, alternating instances: exactly 5 live", async () => {
    const license = await issueLicense(nextOperator(), target, {
      seatModel: "floating",
      config: JSON.stringify({ features: [], limits: { maxSeats: 5 } }),
    });
    const machines = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await new TestClient(instances[i % 2]!.url).api.client.activate({
          body: { licenseKey: license.licenseKey, hwFingerprint: `lease-race-${i}` },
        });
        expect(res.status).toBe(200);
        return res.body.activationId;
      }),
    );
    const answers = await Promise.all(
      machines.map((activationId, i) =>
        signedPost(new TestClient(instances[i % 2]!.url), new Date(), clientPath("acquireLease"), {
          licenseKey: license.licenseKey,
          activationId,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(45);
    expect(
      await count(sql`select count(distinct activation_id)::int as n from leases
                       where license_id = ${license.id} and released_at is null and not lapsed
                         and expires_at > now()`),
    ).toBe(5);
  }, 60_000);

  /** Waits until the endpoint has nothing left to send, then checks each delivery arrived exactly once. */
  async function expectEveryDeliveryOnce() {
    await vi.waitFor(async () => {
      expect(
        await count(sql`select count(*)::int as n from webhook_deliveries where status <> 'Succeeded'`),
      ).toBe(0);
      expect(receiver.received.length).toBe(
        await count(sql`select count(*)::int as n from webhook_deliveries`),
      );
    }, patience);
    const ids = receiver.received.map((r) => r.deliveryId);
    expect(new Set(ids).size, "a delivery arrived twice").toBe(ids.length);
    // One delivery per event: the outbox trigger made exactly one for the one endpoint.
    expect(await count(sql`select count(*)::int as n from webhook_deliveries`)).toBe(
      await count(sql`select count(*)::int as n from outbox_events`),
    );
    return ids.length;
  }

  it("every webhook event is delivered exactly once while both dispatchers run", async () => {
    // Issues from both instances: each commit wakes both dispatchers (NOTIFY), which race for the rows.
    const issued = await Promise.all(
      Array.from({ length: 60 }, () => issueLicense(nextOperator(), target).then((l) => l.id)),
    );
    expect(new Set(issued).size).toBe(60);
    const delivered = await expectEveryDeliveryOnce();
    expect(delivered).toBeGreaterThanOrEqual(60 + 3 + 50);
    figures.push(`webhooks: ${delivered} deliveries, each received once`);
    expect(receiver.received.every((r) => r.verified.xServiceSignature && r.verified.standardWebhooks)).toBe(
      true,
    );
  }, 180_000);

  it("the sweepers process each row once: expiry, missed heartbeats, rollups, partitions", async () => {
    const expiring = await createLicensedCompany(nextOperator());
    for (let bulk = 0; bulk < 2; bulk++) {
      const res = await nextOperator().api.licenses.bulkIssue({
        body: {
          templateId: expiring.templateId,
          items: Array.from({ length: 200 }, () => ({ companyId: expiring.companyId })),
        },
      });
      expect(res.body.succeeded).toBe(200);
    }
    const silentActivations = await count(
      sql`select count(*)::int as n from activations where status = 'active' and mode = 'online'`,
    );
    const now = new Date();
    const monthStart = (ahead: number) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1)).toISOString().slice(0, 10);
    const future = monthStart(2);
    const futurePartition = `heartbeat_records_p${future.slice(0, 7).replace("-", "")}`;
    const old = monthStart(-24);
    const oldPartition = `heartbeat_records_p${old.slice(0, 7).replace("-", "")}`;

    // The set-up of what the jobs will find, in one transaction so that they see all of it or none.
    await database.db.transaction(async (tx) => {
      // 400 licenses past their expiry, issued over the 35 days before today.
      await tx.execute(sql`
        update licenses l set expires_at = now() - interval '1 minute',
               issued_at = now() - (1 + n.i % 35) * interval '1 day'
          from (select id, row_number() over (order by id) as i from licenses
                 where company_id = ${expiring.companyId}) n
         where l.id = n.id`);
      // Every online activation silent for a day.
      await tx.execute(sql`
        update activations set last_heartbeat_at = now() - interval '1 day', silence_reported_at = null
         where status = 'active' and mode = 'online'`);
      // The rollup 40 days behind: two chunks of days to write.
      await tx.execute(
        sql`update usage_rollup_state set rolled_through = (now() at time zone 'UTC')::date - 40`,
      );
      // A month ahead without its partition, with 500 rows waiting in the default partition, and a month past
      // retention (400 days) with its partition and rows.
      await tx.execute(sql.raw(`drop table ${futurePartition}`));
      await tx.execute(sql`
        insert into heartbeat_records (activation_id, license_id, occurred_at)
        select a.id, a.license_id, ${future}::timestamptz + g * interval '1 minute'
          from (select id, license_id from activations order by id limit 10) a, generate_series(1, 50) g`);
      await tx.execute(sql`select heartbeat_partition_create(${old}::date)`);
      await tx.execute(sql`
        insert into heartbeat_records (activation_id, license_id, occurred_at)
        select id, license_id, ${old}::timestamptz + interval '1 day' from activations limit 5`);
    });

    const expiringIds = sql`select id from licenses where company_id = ${expiring.companyId}`;
    await vi.waitFor(async () => {
      expect(
        await count(sql`select count(*)::int as n from licenses
                         where company_id = ${expiring.companyId} and status = 'Active'`),
      ).toBe(0);
      expect(
        await count(sql`select count(*)::int as n from activations
                         where status = 'active' and mode = 'online' and silence_reported_at is null`),
      ).toBe(0);
      expect(
        await count(sql`select count(*)::int as n from usage_rollup_state
                         where rolled_through = (now() at time zone 'UTC')::date - 1`),
      ).toBe(1);
      expect(
        await count(sql`select count(*)::int as n from pg_class where relname = ${futurePartition}`),
      ).toBe(1);
      expect(await count(sql`select count(*)::int as n from pg_class where relname = ${oldPartition}`)).toBe(
        0,
      );
    }, patience);

    // Expiry: one audit entry and one event per license, never two.
    const perLicense = await rows<{ audits: number; events: number }>(sql`
      select (select count(*)::int from audit_log a
               where a.action = 'license.expired' and a.entity_id = l.id::text) as audits,
             (select count(*)::int from outbox_events e
               where e.event_type = 'license.expired' and e.data->>'licenseId' = l.id::text) as events
        from licenses l where l.id in (${expiringIds})`);
    expect(perLicense).toHaveLength(400);
    expect(perLicense.filter((r) => r.audits !== 1 || r.events !== 1)).toEqual([]);
    // Missed heartbeats: one event per silent activation.
    const missed = await rows<{ activation: string; n: number }>(sql`
      select data->>'activationId' as activation, count(*)::int as n from outbox_events
       where event_type = 'license.heartbeat_missed' group by 1`);
    expect(missed).toHaveLength(silentActivations);
    expect(missed.filter((r) => r.n !== 1)).toEqual([]);
    // Rollup: the 400 licenses counted once each, over the 35 days they were issued on.
    const rolled = await rows<{ days: number; issued: number }>(sql`
      select count(*)::int as days, sum(licenses_issued)::int as issued from usage_daily
       where company_id = ${expiring.companyId}`);
    expect(rolled[0]).toEqual({ days: 35, issued: 400 });
    // Partitions: the 500 waiting rows moved into the new partition once, none left behind or doubled.
    expect(
      await count(sql.raw(`select count(*)::int as n from ${futurePartition}`)),
      "rows moved into the new partition",
    ).toBe(500);
    expect(
      await count(
        sql`select count(*)::int as n from heartbeat_records_default where occurred_at >= ${future}`,
      ),
    ).toBe(0);

    // And each of those events reached the webhook receiver once.
    const delivered = await expectEveryDeliveryOnce();
    figures.push(
      `sweeps: 400 licenses expired once each, ${silentActivations} missed heartbeats once each, ` +
        `${rolled[0]!.days} days rolled up, 500 heartbeat rows moved; ${delivered} deliveries, each received once`,
    );
  }, 180_000);

  it("the lease rollup writes each past day once: figures as the raw spans give them, no day doubled", async () => {
    // A company of its own with one floating license of 2 seats, and one machine to hang the spans on.
    const own = await createLicensedCompany(nextOperator());
    const license = await issueLicense(nextOperator(), own, {
      seatModel: "floating",
      config: JSON.stringify({ features: [], limits: { maxSeats: 2 } }),
    });
    const activated = await new TestClient(instances[0]!.url).api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "lease-rollup-machine" },
    });
    expect(activated.status).toBe(200);

    // Hand-placed spans (hours from midnight UTC three days ago; all released, so the machine's one open
    // lease is not in the way), in one transaction with the rollup set 40 days back: two chunks to write.
    //   day 1: 10–14 and 12–13, then 23–25 across midnight  → peak 2, full (2 live) 12–13 = 3600 s
    //   day 2: 0–1 (the same span), 8–10, 9–11, 9:30–9:45   → peak 3, full 9–10 = 3600 s
    const spans: [number, number][] = [
      [10, 14],
      [12, 13],
      [23, 25],
      [32, 34],
      [33, 35],
      [33.5, 33.75],
    ];
    const dayOne = sql`(((now() at time zone 'UTC')::date - 3)::timestamp at time zone 'UTC')`;
    await database.db.transaction(async (tx) => {
      for (const [from, to] of spans)
        await tx.execute(sql`
          insert into leases (id, span, license_id, activation_id, company_id, template_id,
                              acquired_at, expires_at, released_at, release_reason)
          values (${randomUUID()}, 1, ${license.id}, ${activated.body.activationId}, ${own.companyId},
                  ${own.templateId}, ${dayOne} + ${from} * interval '1 hour',
                  ${dayOne} + ${to + 1} * interval '1 hour', ${dayOne} + ${to} * interval '1 hour', 'client')`);
      await tx.execute(
        sql`update lease_rollup_state set rolled_through = (now() at time zone 'UTC')::date - 40`,
      );
    });

    // Both instances run the job every second: wait until it is back at yesterday.
    await vi.waitFor(async () => {
      expect(
        await count(sql`select count(*)::int as n from lease_rollup_state
                         where rolled_through = (now() at time zone 'UTC')::date - 1`),
      ).toBe(1);
    }, patience);

    const rolled = await rows<{ day: number; template: string; peak: number; full: number }>(sql`
      select (now() at time zone 'UTC')::date - day as day, template_id::text as template,
             peak_leases as peak, full_seconds as full
        from lease_concurrency_daily where company_id = ${own.companyId} order by day desc`);
    expect(rolled).toEqual([
      { day: 3, template: own.templateId, peak: 2, full: 3600 },
      { day: 2, template: own.templateId, peak: 3, full: 3600 },
    ]);
    // Over the whole platform, one row per day, company and template (the primary key would refuse a
    // second), and every rolled-up day inside the window the two instances rewrote.
    expect(
      await count(sql`select count(*)::int as n from (
                        select 1 from lease_concurrency_daily
                         group by day, company_id, template_id having count(*) > 1) d`),
    ).toBe(0);
    figures.push(
      `lease rollup: 40 days rewritten by two instances, hand-placed spans rolled up once (peaks 2 and 3, 3600 s full)`,
    );
  }, 120_000);

  it("rate limits are shared: the 21st auth request in a minute is refused whichever instance gets it", async () => {
    // A client address of this run's own behind the (loopback) load balancer, so no other test shares its counter.
    const address = `198.18.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 254)}`;
    const ask = (instance: Instance) =>
      new TestClient(instance.url).get("/api/v1/panel/auth/me", { "x-forwarded-for": address });
    for (let i = 0; i < 20; i++) expect((await ask(instances[i % 2]!)).status).toBe(401);
    for (const instance of instances) {
      const refused = await ask(instance);
      expect(refused.status, `instance ${instance.name}`).toBe(429);
      expect(refused.error.code).toBe("rate_limit.exceeded");
    }
  }, 60_000);

  it("kill -9 of one instance under load: the other keeps serving, nothing acknowledged is lost, the restarted one rejoins", async () => {
    const [a, b] = instances as [Instance, Instance];
    const acknowledged = { licenses: [] as string[], activations: [] as string[] };
    const served = new Map<string, number>(instances.map((i) => [i.name, 0]));
    const serverErrors: string[] = [];
    let refused = 0;
    // Issues and activations each alternate between the instances (in opposite phase).
    const pickIssuer = roundRobin([a, b]);
    const pickActivator = roundRobin([b, a]);
    let running = true;

    const loop = async () => {
      while (running) {
        const [issuer, activator] = [pickIssuer(), pickActivator()];
        try {
          const operator = new TestClient(issuer.url);
          operator.cookie = operators[0]!.cookie;
          const issued = await operator.api.licenses.issue({ body: target });
          if (issued.status >= 500) serverErrors.push(`${issuer.name} issue ${issued.status} ${issued.text}`);
          if (issued.status !== 201) continue;
          acknowledged.licenses.push(issued.body.id);
          served.set(issuer.name, served.get(issuer.name)! + 1);
          const activated = await new TestClient(activator.url).api.client.activate({
            body: { licenseKey: issued.body.licenseKey, hwFingerprint: randomUUID() },
          });
          if (activated.status >= 500)
            serverErrors.push(`${activator.name} activate ${activated.status} ${activated.text}`);
          if (activated.status !== 200) continue;
          acknowledged.activations.push(activated.body.activationId);
          served.set(activator.name, served.get(activator.name)! + 1);
        } catch {
          // The killed instance: connection refused or reset, so nothing was acknowledged. A load balancer
          // would send the next request elsewhere; this one just goes on.
          refused++;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const loops = Array.from({ length: 4 }, loop);
    const servedBy = (instance: Instance) => served.get(instance.name)!;

    try {
      await vi.waitFor(() => expect(servedBy(b)).toBeGreaterThanOrEqual(20), patience);
      await b.kill9();
      const survivorBefore = servedBy(a);
      await vi.waitFor(() => expect(servedBy(a) - survivorBefore).toBeGreaterThanOrEqual(40), patience);
      expect(refused, "requests to the killed instance failed").toBeGreaterThan(0);

      await b.restart();
      const rejoinedBefore = servedBy(b);
      await vi.waitFor(() => expect(servedBy(b) - rejoinedBefore).toBeGreaterThanOrEqual(20), patience);
    } finally {
      running = false;
      await Promise.all(loops);
    }
    expect(serverErrors).toEqual([]);

    // Every acknowledged write is in the database.
    const licenses = new Set(
      (await rows<{ id: string }>(sql`select id::text from licenses`)).map((r) => r.id),
    );
    expect(acknowledged.licenses.filter((id) => !licenses.has(id))).toEqual([]);
    const activations = new Set(
      (await rows<{ id: string }>(sql`select id::text from activations where status = 'active'`)).map(
        (r) => r.id,
      ),
    );
    expect(acknowledged.activations.filter((id) => !activations.has(id))).toEqual([]);
    // Every delivery the receiver acknowledged is a row of the database, and every delivery is sent in the
    // end but those the killed dispatcher had claimed: their lease (send timeout + 60 s) keeps them until
    // it runs out, then another instance sends them again (at least once, decision 0025).
    const deliveries = new Set(
      (await rows<{ id: string }>(sql`select id::text from webhook_deliveries`)).map((r) => r.id),
    );
    expect(receiver.received.map((r) => r.deliveryId).filter((id) => !deliveries.has(id))).toEqual([]);
    await vi.waitFor(async () => {
      expect(
        await count(sql`select count(*)::int as n from webhook_deliveries
                         where status <> 'Succeeded' and (lease_until is null or lease_until <= now())`),
      ).toBe(0);
    }, patience);
    const stranded = await count(
      sql`select count(*)::int as n from webhook_deliveries where status <> 'Succeeded'`,
    );
    figures.push(
      `kill -9: ${acknowledged.licenses.length} issues and ${acknowledged.activations.length} activations ` +
        `acknowledged (2xx answers: A ${servedBy(a)}, B ${servedBy(b)}), ${refused} requests refused by the ` +
        `killed instance, ${deliveries.size} webhook deliveries, ${stranded} held by the killed dispatcher's lease`,
    );

    // The restarted instance serves as before.
    const again = await new TestClient(b.url).get("/readyz");
    expect(again.status).toBe(200);

    // Graceful shutdown of both: exit code 0, and no error logged by either, before or after the kill.
    for (const instance of instances) expect(await instance.stop(), `instance ${instance.name}`).toBe(0);
    for (const instance of instances)
      expect(instance.output(), `instance ${instance.name}`).not.toMatch(/"level":(50|60)/);
    // Who did the work, as each instance logged it ("job run" lines; the killed process's last unflushed
    // lines are lost with it): a figure, not a check, since which instance wins a claim is a race.
    for (const job of [
      "webhook-deliveries",
      "license-expiry",
      "missed-heartbeats",
      "usage-rollup",
      "lease-rollup",
    ]) {
      const counts = instances.map((instance) => {
        const runs = instance.output().matchAll(new RegExp(`"job":"${job}","count":(\\d+)`, "g"));
        return `${instance.name} ${[...runs].reduce((sum, run) => sum + Number(run[1]), 0)}`;
      });
      figures.push(`${job} rows handled per instance: ${counts.join(", ")}`);
    }
  }, 300_000);
});
