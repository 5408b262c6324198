import { MINUTE, HOUR, webhooks } from "@licensing/core";
import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createLicensedCompany,
  issueLicense,
  startTestApp,
  type TestApp,
  type TestClient,
} from "../testing/index.ts";
import { startWebhookReceiver, verifySignatures, type WebhookReceiver } from "../testing/webhook-receiver.ts";

const SECRET = "whsec-like-secret-1234567890";
const TIMEOUT_MS = 400;

let app: TestApp;
let op: TestClient;
let target: { companyId: string; templateId: string };
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  // The receivers listen on loopback, which only WEBHOOK_ALLOW_PRIVATE permits.
  app = await startTestApp({ webhooks: { allowPrivate: true, timeoutMs: TIMEOUT_MS } });
  op = await app.client({ signIn: true });
  target = await createLicensedCompany(op);
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(() => app.close());

const dispatch = () => webhooks.dispatchDueDeliveries(app.deps);

async function receiver(secret = SECRET): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver({ secret, now: () => app.clock.now() });
  cleanup.push(() => started.close());
  return started;
}

async function endpoint(url: string, events: string[], options: { inactive?: boolean } = {}) {
  const res = await op.api.webhooks.create({ body: { url, secret: SECRET, description: "test", events } });
  if (res.status !== 201) throw new Error(`endpoint: ${res.status} ${res.text}`);
  const params = { id: res.body.id };
  cleanup.push(() => op.api.webhooks.delete({ params }));
  // Creation takes no isActive (spec §4); an endpoint is switched off with PATCH.
  if (options.inactive) await op.api.webhooks.update({ params, body: { isActive: false } });
  return res.body;
}

const deliveriesOf = async (endpointId: string) =>
  (await op.api.webhooks.deliveries({ params: { id: endpointId } })).body;
const getEndpoint = async (id: string) => (await op.api.webhooks.get({ params: { id } })).body;
const setActive = (id: string, isActive: boolean) =>
  op.api.webhooks.update({ params: { id }, body: { isActive } });
const replay = (deliveryId: string) => op.api.webhooks.replay({ params: { deliveryId } });

describe("delivery", () => {
  it("sends the envelope with the spec's and the Standard Webhooks headers, both signatures verifying", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    const license = await issueLicense(op, target);
    const [pending] = await deliveriesOf(id);
    expect(pending).toMatchObject({
      endpointId: id,
      eventType: "license.issued",
      status: "Pending",
      attemptCount: 0,
      responseStatusCode: null,
      lastAttemptAt: null,
      nextAttemptAt: app.clock.now().toISOString(),
    });

    expect(await dispatch()).toBe(1);
    expect(hooks.received).toHaveLength(1);
    const [got] = hooks.received;
    expect(got!.verified).toEqual({ xServiceSignature: true, standardWebhooks: true });
    expect(got!.headers).toMatchObject({
      "content-type": "application/json",
      "x-service-event": "license.issued",
      "x-service-delivery": pending!.id,
      "webhook-id": pending!.id,
      "webhook-timestamp": String(Math.floor(app.clock.now().getTime() / 1000)),
    });
    expect(got!.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(got!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Object.keys(got!.body)).toEqual(["event", "occurredAt", "data"]);
    expect(got!.body).toEqual({
      event: "license.issued",
      occurredAt: pending!.createdAt,
      data: expect.objectContaining({
        licenseId: license.id,
        licenseKey: license.licenseKey,
        companyId: target.companyId,
      }),
    });
    expect(pending!.payload).toBe(got!.raw.toString("utf8"));

    const [done] = await deliveriesOf(id);
    expect(done).toMatchObject({
      id: pending!.id,
      status: "Succeeded",
      attemptCount: 1,
      responseStatusCode: 200,
      responseBody: "ok",
      lastError: null,
      nextAttemptAt: null,
      lastAttemptAt: app.clock.now().toISOString(),
    });
    expect((await getEndpoint(id)).lastDeliveryAt).toBe(app.clock.now().toISOString());
    expect(await dispatch()).toBe(0);
  });

  it("shows as payload the exact body the receiver got, byte for byte, and the signatures verify over it", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.revoked"]);
    const license = await issueLicense(op, target);
    // Text JSON escapes, and characters of two, three and four UTF-8 bytes.
    const reason = 'Refund "CASE-7" \\ back-office: café – ✓ 😀';
    await op.api.licenses.revoke({ params: { id: license.id }, body: { reason } });
    expect(await dispatch()).toBe(1);
    const [got] = hooks.received;

    const [rest] = await deliveriesOf(id);
    const [trpc] = await op.trpc.webhooks.deliveries.query({ id });
    expect(typeof rest!.payload).toBe("string");
    expect(trpc!.payload).toBe(rest!.payload);
    expect(Buffer.from(rest!.payload, "utf8").equals(got!.raw)).toBe(true);
    expect(JSON.parse(rest!.payload)).toMatchObject({ event: "license.revoked", data: { reason } });
    // What a receiver's developer does with the text the panel shows: check the signatures they received.
    expect(await verifySignatures(SECRET, rest!.payload, got!.headers, app.clock.now())).toEqual({
      xServiceSignature: true,
      standardWebhooks: true,
    });
    // The same check fails on any other text, a re-serialisation of the same JSON included.
    const reformatted = JSON.stringify(JSON.parse(rest!.payload), null, 2);
    expect(await verifySignatures(SECRET, reformatted, got!.headers, app.clock.now())).toEqual({
      xServiceSignature: false,
      standardWebhooks: false,
    });

    // A retry sends the same bytes, and the payload stays the same text.
    await replay(rest!.id);
    await dispatch();
    expect(hooks.received[1]!.raw.equals(got!.raw)).toBe(true);
    expect((await deliveriesOf(id))[0]!.payload).toBe(rest!.payload);
  });

  it("a wrong secret fails both receiver-side checks (the checks can fail)", async () => {
    const hooks = await receiver("not-the-secret-at-all!");
    await endpoint(hooks.url, ["license.issued"]);
    await issueLicense(op, target);
    await dispatch();
    expect(hooks.received[0]!.verified).toEqual({ xServiceSignature: false, standardWebhooks: false });
  });

  it("sends nothing to inactive endpoints, to endpoints not subscribed, nor after deactivation", async () => {
    const subscribed = await receiver();
    const other = await receiver();
    const inactive = await receiver();
    const later = await receiver();
    const a = await endpoint(subscribed.url, ["license.issued"]);
    const b = await endpoint(other.url, ["license.revoked", "license.expired"]);
    const c = await endpoint(inactive.url, ["license.issued"], { inactive: true });
    expect((await getEndpoint(c.id)).isActive).toBe(false);
    const d = await endpoint(later.url, ["license.issued"]);
    await issueLicense(op, target);
    await setActive(d.id, false);

    await dispatch();
    expect(subscribed.received).toHaveLength(1);
    expect(other.received).toHaveLength(0);
    expect(inactive.received).toHaveLength(0);
    expect(later.received).toHaveLength(0);
    expect((await deliveriesOf(a.id)).map((x) => x.status)).toEqual(["Succeeded"]);
    expect(await deliveriesOf(b.id)).toEqual([]);
    expect(await deliveriesOf(c.id)).toEqual([]);
    // Created while it was active, it waits for the endpoint to be switched back on.
    expect((await deliveriesOf(d.id)).map((x) => x.status)).toEqual(["Pending"]);
    await setActive(d.id, true);
    await dispatch();
    expect(later.received).toHaveLength(1);
  });
});

describe("retries (moved clock)", () => {
  it("retries after 1 min, 5 min, 30 min and 2 h; a 200 on attempt 5 succeeds", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    hooks.queue.push(
      { status: 500, body: "boom" },
      { status: 503, body: "x".repeat(5000) },
      { status: 500 },
      { status: 404 },
    );
    await issueLicense(op, target);
    expect(await dispatch()).toBe(1);
    const delays = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR];
    for (const [i, delay] of delays.entries()) {
      const [row] = await deliveriesOf(id);
      expect(row).toMatchObject({
        status: "Pending",
        attemptCount: i + 1,
        lastAttemptAt: app.clock.now().toISOString(),
      });
      expect(row!.lastError).toMatch(/^HTTP (500|503|404)/);
      expect(new Date(row!.nextAttemptAt!).getTime() - app.clock.now().getTime()).toBe(delay);
      if (i === 0) expect(row).toMatchObject({ responseStatusCode: 500, responseBody: "boom" });
      if (i === 1) expect(row!.responseBody).toBe("x".repeat(2000));
      app.clock.advance(delay - 1000);
      expect(await dispatch()).toBe(0);
      app.clock.advance(1000);
      expect(await dispatch()).toBe(1);
    }
    const [done] = await deliveriesOf(id);
    expect(done).toMatchObject({
      status: "Succeeded",
      attemptCount: 5,
      responseStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(new Set(hooks.received.map((r) => r.deliveryId)).size).toBe(1);
    expect(hooks.received.every((r) => r.verified.xServiceSignature && r.verified.standardWebhooks)).toBe(
      true,
    );
    // The same bytes every time.
    expect(new Set(hooks.received.map((r) => r.raw.toString("base64"))).size).toBe(1);
  });

  it("five failed attempts end in Failed and retries stop", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    hooks.queue.push(...Array.from({ length: 6 }, () => ({ status: 500 })));
    await issueLicense(op, target);
    for (let i = 0; i < 5; i++) {
      app.clock.advance(12 * HOUR);
      expect(await dispatch()).toBe(1);
    }
    const [failed] = await deliveriesOf(id);
    expect(failed).toMatchObject({
      status: "Failed",
      attemptCount: 5,
      nextAttemptAt: null,
      responseStatusCode: 500,
    });
    app.clock.advance(48 * HOUR);
    expect(await dispatch()).toBe(0);
    expect(hooks.received).toHaveLength(5);
  });

  // Proves the timeout by what it leaves, not by how long it took: the attempt ends as a timeout naming the
  // configured TIMEOUT_MS (not the 30 s default), and the sender closed the connection the receiver held.
  it("a receiver that never answers: the configured timeout ends the attempt and is recorded", async () => {
    expect(app.deps.config.webhooks.timeoutMs).toBe(TIMEOUT_MS);
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    hooks.queue.push({ hang: true });
    await issueLicense(op, target);
    expect(await dispatch()).toBe(1);
    const [row] = await deliveriesOf(id);
    expect(row).toMatchObject({
      status: "Pending",
      attemptCount: 1,
      responseStatusCode: null,
      responseBody: null,
      lastError: `timeout: no complete answer within ${TIMEOUT_MS} ms`,
    });
    expect(hooks.received).toHaveLength(1);
    await vi.waitFor(() => expect(hooks.abandoned).toEqual([row!.id]), { timeout: 20_000 });
  });

  it("a redirect is not followed and counts as a failure", async () => {
    const hooks = await receiver();
    const elsewhere = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    hooks.queue.push({ status: 302, headers: { location: elsewhere.url }, body: "moved" });
    await issueLicense(op, target);
    await dispatch();
    const [row] = await deliveriesOf(id);
    expect(row).toMatchObject({
      status: "Pending",
      attemptCount: 1,
      responseStatusCode: 302,
      responseBody: "moved",
    });
    expect(row!.lastError).toMatch(/redirect/);
    expect(elsewhere.received).toHaveLength(0);
  });

  it("a refused network connection is a failed attempt", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    await hooks.close();
    await issueLicense(op, target);
    await dispatch();
    const [row] = await deliveriesOf(id);
    expect(row).toMatchObject({ status: "Pending", attemptCount: 1, responseStatusCode: null });
    expect(row!.lastError).toMatch(/^network error: .*ECONNREFUSED/);
  });
});

describe("POST /panel/webhooks/deliveries/{id}/replay", () => {
  it("resets a failed delivery to Pending, attemptCount 0, due now, and it is sent again with the same id", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    hooks.queue.push(...Array.from({ length: 5 }, () => ({ status: 500 })));
    await issueLicense(op, target);
    for (let i = 0; i < 5; i++) {
      app.clock.advance(12 * HOUR);
      await dispatch();
    }
    const [failed] = await deliveriesOf(id);
    expect(failed!.status).toBe("Failed");

    app.clock.advance(HOUR);
    const replayed = await replay(failed!.id);
    expect(replayed.status).toBe(204);
    const [reset] = await deliveriesOf(id);
    expect(reset).toMatchObject({
      status: "Pending",
      attemptCount: 0,
      nextAttemptAt: app.clock.now().toISOString(),
    });
    expect(await dispatch()).toBe(1);
    const [done] = await deliveriesOf(id);
    expect(done).toMatchObject({ status: "Succeeded", attemptCount: 1 });
    expect(hooks.received.map((r) => r.deliveryId)).toEqual(Array(6).fill(failed!.id));
    expect(hooks.received.at(-1)!.verified).toEqual({ xServiceSignature: true, standardWebhooks: true });
    const [audit] = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, failed!.id));
    expect(audit).toMatchObject({ action: "webhook_delivery.replayed" });
  });

  it("replays a succeeded delivery too", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    await issueLicense(op, target);
    await dispatch();
    const [done] = await deliveriesOf(id);
    expect((await replay(done!.id)).status).toBe(204);
    await dispatch();
    expect(hooks.received.map((r) => r.deliveryId)).toEqual([done!.id, done!.id]);
  });
});

describe("GET /operator/overview, webhook figures", () => {
  it("counts active endpoints and the last 24 hours' deliveries by status", async () => {
    const overview = async () => {
      const { webhookEndpoints, deliveryHealthLast24h } = (await op.api.operator.overview()).body;
      return { webhookEndpoints, deliveryHealthLast24h };
    };
    expect(await overview()).toEqual({
      webhookEndpoints: 0,
      deliveryHealthLast24h: { pending: 0, failed: 0, success: 0 },
    });
    const hooks = await receiver();
    await endpoint(hooks.url, ["license.issued"]);
    await endpoint(hooks.url, ["license.revoked"]);
    await endpoint(hooks.url, ["license.issued"], { inactive: true });
    // Three deliveries: one answered 200, two that fail all five attempts.
    hooks.queue.push({ status: 200 }, ...Array.from({ length: 10 }, () => ({ status: 500 })));
    for (let i = 0; i < 3; i++) await issueLicense(op, target);
    expect(await dispatch()).toBe(3);
    for (const delay of [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR]) {
      app.clock.advance(delay);
      expect(await dispatch()).toBe(2);
    }
    await issueLicense(op, target);
    expect(await overview()).toEqual({
      webhookEndpoints: 2,
      deliveryHealthLast24h: { pending: 1, failed: 2, success: 1 },
    });
    app.clock.advance(24 * HOUR - 2 * HOUR);
    expect((await overview()).deliveryHealthLast24h).toEqual({ pending: 1, failed: 0, success: 0 });
  });
});

describe("tRPC webhooks.deliveries and webhooks.replay", () => {
  it("list and replay like REST", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    await issueLicense(op, target);
    await dispatch();
    const [delivery] = await op.trpc.webhooks.deliveries.query({ id, limit: 1 });
    expect(delivery).toEqual((await deliveriesOf(id))[0]);
    await op.trpc.webhooks.replay.mutate({ deliveryId: delivery!.id });
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "Pending", attemptCount: 0 });
    await dispatch();
    expect(hooks.received.map((r) => r.deliveryId)).toEqual([delivery!.id, delivery!.id]);
  });
});

describe("at least once, never twice at once", () => {
  it("a worker stopped between send and save: the delivery is sent again, with the same id, after its lease", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.issued"]);
    await issueLicense(op, target);
    // What a worker that dies does: claim and send, never save.
    const [claimed] = await webhooks.claimDueDeliveries(app.deps, 10);
    expect(await webhooks.sendDelivery(app.deps, claimed!)).toMatchObject({
      kind: "response",
      statusCode: 200,
    });
    expect(hooks.received).toHaveLength(1);

    // Another worker leaves it alone while the lease runs...
    expect(await dispatch()).toBe(0);
    app.clock.advance(TIMEOUT_MS + 59_000);
    expect(await dispatch()).toBe(0);
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "Pending", attemptCount: 0 });
    // ...and takes it once the lease has passed.
    app.clock.advance(2_000);
    expect(await dispatch()).toBe(1);
    expect(hooks.received.map((r) => r.deliveryId)).toEqual([claimed!.id, claimed!.id]);
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "Succeeded", attemptCount: 1 });
    // The first worker's late save is ignored: the lease is no longer its own.
    await webhooks.saveOutcome(app.deps, claimed!, { kind: "error", error: "late" });
    expect((await deliveriesOf(id))[0]).toMatchObject({
      status: "Succeeded",
      attemptCount: 1,
      lastError: null,
    });
  });

  it("deliveries exist exactly when their event does: a rolled-back transaction leaves none", async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, ["license.revoked"]);
    const event = {
      eventType: "license.revoked",
      data: { licenseId: "l", licenseKey: "k", reason: null, revokedAt: app.clock.now().toISOString() },
      occurredAt: app.clock.now(),
    };
    await expect(
      app.deps.db.transaction(async (tx) => {
        await tx.insert(tables.outboxEvents).values(event);
        expect(
          await tx.select().from(tables.webhookDeliveries).where(eq(tables.webhookDeliveries.endpointId, id)),
        ).toHaveLength(1);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await deliveriesOf(id)).toEqual([]);
    await app.deps.db.insert(tables.outboxEvents).values(event);
    expect(await deliveriesOf(id)).toHaveLength(1);
  });
});
