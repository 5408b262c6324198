import { randomBytes, randomUUID } from "node:crypto";
import { createDeps, createManualClock, sealedAt, webhooks, type Deps } from "@licensing/core";
import { createDatabase, tables, type Database } from "@licensing/db";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver.ts";

/**
 * Two server instances, each with its own connections and its own dispatcher, over one database. On
 * PGlite (one process owns the database) both share its single connection, which still runs their
 * claims one after the other; on PostgreSQL (TEST_DATABASE_URL, as CI runs it) they truly race.
 */
const SECRET = "two-workers-secret-0123456789";
const masterKey = randomBytes(32);
const clock = createManualClock(new Date());
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

let database: TestDatabase;
let second: Database | undefined;
let a: Deps;
let b: Deps;
let hooks: WebhookReceiver;

const depsOver = (db: Database) =>
  createDeps({
    db: db.db,
    clock,
    logger,
    publicBaseUrl: "http://localhost",
    masterKey,
    webhooks: { allowPrivate: true, timeoutMs: 5_000 },
  });

beforeAll(async () => {
  database = await createTestDatabase();
  second = database.url ? createDatabase({ url: database.url, maxConnections: 10 }) : undefined;
  a = depsOver(database);
  b = depsOver(second ?? database);
  hooks = await startWebhookReceiver({ secret: SECRET, now: () => clock.now() });
});
afterAll(async () => {
  await hooks?.close();
  await second?.close();
  await database?.dispose();
});

async function addEndpoint(events: string[]) {
  const id = randomUUID();
  const [row] = await a.db
    .insert(tables.webhookEndpoints)
    .values({
      id,
      url: hooks.url,
      secretSealed: a.secrets.seal(SECRET, sealedAt(tables.webhookEndpoints.secretSealed, id)),
      events,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    .returning();
  return row!;
}

const publish = (deps: Deps, count: number, type = "license.issued") =>
  deps.db.insert(tables.outboxEvents).values(
    Array.from({ length: count }, (_, i) => ({
      eventType: type,
      data: { licenseId: `license-${i}`, n: i },
      occurredAt: clock.now(),
    })),
  );

describe("two workers over one database", () => {
  it("deliver 1,000 events: each exactly once, none sent twice at the same time, none lost", async () => {
    const endpoint = await addEndpoint(["license.issued"]);
    for (let i = 0; i < 5; i++) await publish(i % 2 ? a : b, 200);
    hooks.queue.length = 0;
    const options = { batchSize: 25, concurrency: 8 };
    const [byA, byB] = await Promise.all([
      webhooks.dispatchDueDeliveries(a, options),
      webhooks.dispatchDueDeliveries(b, options),
    ]);
    expect(byA + byB).toBe(1000);
    expect(hooks.received).toHaveLength(1000);
    expect(new Set(hooks.received.map((r) => r.deliveryId)).size).toBe(1000);
    expect(hooks.overlaps).toEqual([]);
    expect(hooks.received.every((r) => r.verified.xServiceSignature && r.verified.standardWebhooks)).toBe(
      true,
    );
    const rows = await a.db.select().from(tables.webhookDeliveries);
    expect(rows.filter((r) => r.endpointId === endpoint.id && r.status === "Succeeded")).toHaveLength(1000);
    const sent = new Set(hooks.received.map((r) => r.deliveryId));
    expect(rows.every((r) => sent.has(r.id))).toBe(true);
    if (second) {
      // On PostgreSQL both instances did part of the work.
      expect(byA).toBeGreaterThan(0);
      expect(byB).toBeGreaterThan(0);
    }
    await a.db.delete(tables.webhookEndpoints);
    hooks.received.length = 0;
  }, 120_000);

  // What this proves, without timing: A sends only when woken (no poll), so the delivery arriving at all
  // means B's commit woke A's listener; and a wake-up while B's transaction is still open finds nothing,
  // since NOTIFY leaves only at the commit.
  it("a commit on one instance notifies another's listener at the commit (LISTEN/NOTIFY)", async () => {
    await addEndpoint(["license.revoked"]);
    // Instance A dispatches only when notified (the server wires its dispatcher job the same way).
    const woken: Promise<number>[] = [];
    const unlisten = await database.listen(webhooks.WAKE_CHANNEL, () => {
      woken.push(webhooks.dispatchDueDeliveries(a));
    });
    try {
      await b.db.transaction(async (tx) => {
        await tx.insert(tables.outboxEvents).values({
          eventType: "license.revoked",
          data: { licenseId: "l", licenseKey: "k", reason: null, revokedAt: clock.now().toISOString() },
          occurredAt: clock.now(),
        });
        if (second) {
          // A notification sent and committed after the insert reaches the listener after any the insert
          // had sent: once it has arrived, a NOTIFY of the insert's would have too. It wakes A, which
          // finds no delivery to send: the transaction's rows are not visible yet.
          await a.db.execute(sql`select pg_notify(${webhooks.WAKE_CHANNEL}, '')`);
          await vi.waitFor(() => expect(woken).toHaveLength(1), { timeout: 20_000 });
          expect(await woken[0]).toBe(0);
        } else {
          // PGlite hands a notification to its listeners (as microtasks) while reading the answer of the
          // statement that committed it, so one sent by the insert would have been heard by now.
          await tx.execute(sql`select 1`);
          expect(woken).toHaveLength(0);
        }
      });
      const [got] = await hooks.waitFor(1);
      expect(got!.headers["x-service-event"]).toBe("license.revoked");
      expect(await Promise.all(woken)).toEqual(second ? [0, 1] : [1]);
    } finally {
      await unlisten();
      await Promise.all(woken);
      await a.db.delete(tables.webhookEndpoints);
      hooks.received.length = 0;
    }
  });
});
