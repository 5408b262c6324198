import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY, MINUTE, verifyMarker } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLicensedCompany, issueLicense, signedPost, type SignOptions } from "../testing/client-api.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";

let app: TestApp;
let operator: TestClient;
let target: { companyId: string; templateId: string };
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  target = await createLicensedCompany(operator);
});
afterAll(() => app.close());

const HEARTBEAT = "/api/v1/client/heartbeat";
const DEACTIVATE = "/api/v1/client/deactivate";

async function activated(terms: Record<string, unknown> = {}) {
  const license = await issueLicense(operator, target, { offlineDays: 3, ...terms });
  const client = await app.client();
  const res = await client.post("/api/v1/client/activate", {
    licenseKey: license.licenseKey,
    hwFingerprint: "fp",
  });
  expect(res.status).toBe(200);
  return { license, activationId: res.body.activationId as string, client };
}

const beat = (
  client: TestClient,
  body: { licenseKey: string; activationId: string },
  options?: SignOptions,
) => signedPost(client, app.clock.now(), HEARTBEAT, body, options);

describe("POST /client/heartbeat", () => {
  it("returns a fresh marker with exp = now + offline days and records the heartbeat", async () => {
    const { license, activationId, client } = await activated();
    app.clock.advance(10 * MINUTE);
    const res = await beat(client, { licenseKey: license.licenseKey, activationId });
    expect(res.status).toBe(200);
    const marker = verifyMarker(res.body.heartbeatToken, license.publicKey, { now: app.clock.now() });
    expect(marker.valid && marker.payload).toMatchObject({
      lid: license.id,
      aid: activationId,
      fp: "fp",
      exp: Math.floor((app.clock.now().getTime() + 3 * DAY) / 1000),
    });
    const heartbeats = await operator.get(`/api/v1/panel/licenses/${license.id}/heartbeats`);
    expect(heartbeats.body).toEqual([
      { id: expect.any(String), activationId, occurredAt: app.clock.now().toISOString() },
    ]);
    const view = await operator.get(`/api/v1/panel/licenses/${license.id}`);
    expect(view.body.lastHeartbeatAt).toBe(app.clock.now().toISOString());
    const activations = await operator.get(`/api/v1/panel/licenses/${license.id}/activations`);
    expect(activations.body[0].lastHeartbeatAt).toBe(app.clock.now().toISOString());
  });

  it("answers license.not_active once the license is revoked, suspended or expired", async () => {
    for (const act of ["revoke", "suspend", "expire"] as const) {
      const { license, activationId, client } = await activated({
        expiresAt: new Date(app.clock.now().getTime() + 2 * DAY).toISOString(),
      });
      if (act === "expire") app.clock.advance(2 * DAY + 1000);
      else
        await operator.post(`/api/v1/panel/licenses/${license.id}/${act}`, act === "revoke" ? {} : undefined);
      const res = await beat(client, { licenseKey: license.licenseKey, activationId });
      expect(res.status, act).toBe(400);
      expect(res.body.code, act).toBe("license.not_active");
    }
  });

  it("answers an unknown key, another license's activation and a deactivated one with 404s", async () => {
    const { license, activationId, client } = await activated();
    const other = await activated();
    const unknownKey = await beat(client, { licenseKey: "SVC-00000-00000-00000-00000-00000", activationId });
    expect(unknownKey.status).toBe(404);
    expect(unknownKey.body.code).toBe("license.not_found");
    const foreign = await beat(client, { licenseKey: license.licenseKey, activationId: other.activationId });
    expect(foreign.body.code).toBe("activation.not_found");
    await signedPost(client, app.clock.now(), DEACTIVATE, { licenseKey: license.licenseKey, activationId });
    const gone = await beat(client, { licenseKey: license.licenseKey, activationId });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("activation.not_found");
  });

  it("gives each of many simultaneous heartbeats its own answer", async () => {
    const live = await Promise.all(Array.from({ length: 12 }, () => activated()));
    const deactivated = await activated();
    await signedPost(deactivated.client, app.clock.now(), DEACTIVATE, {
      licenseKey: deactivated.license.licenseKey,
      activationId: deactivated.activationId,
    });
    const revoked = await activated();
    await operator.post(`/api/v1/panel/licenses/${revoked.license.id}/revoke`, {});
    app.clock.advance(MINUTE);

    const bodyOf = (a: { license: { licenseKey: string }; activationId: string }) => ({
      licenseKey: a.license.licenseKey,
      activationId: a.activationId,
    });
    const client = await app.client();
    const [valid, repeated, foreign, gone, notActive] = await Promise.all([
      Promise.all(live.map((a) => beat(client, bodyOf(a)))),
      beat(client, bodyOf(live[0]!)),
      beat(client, { licenseKey: live[1]!.license.licenseKey, activationId: live[2]!.activationId }),
      beat(client, bodyOf(deactivated)),
      beat(client, bodyOf(revoked)),
    ]);

    valid.forEach((res, i) => {
      expect(res.status, `activation ${i}`).toBe(200);
      const marker = verifyMarker(res.body.heartbeatToken, live[i]!.license.publicKey, {
        now: app.clock.now(),
      });
      expect(marker.valid && marker.payload.aid, `activation ${i}`).toBe(live[i]!.activationId);
    });
    expect(repeated.status).toBe(200);
    expect(foreign.body.code).toBe("activation.not_found");
    expect(gone.body.code).toBe("activation.not_found");
    expect(notActive.body.code).toBe("license.not_active");

    for (const a of live.slice(1)) {
      const records = await app.deps.db
        .select()
        .from(tables.heartbeatRecords)
        .where(eq(tables.heartbeatRecords.activationId, a.activationId));
      expect(records.map((r) => r.occurredAt.toISOString())).toEqual([app.clock.now().toISOString()]);
    }
    for (const a of [deactivated, revoked]) {
      const records = await app.deps.db
        .select()
        .from(tables.heartbeatRecords)
        .where(eq(tables.heartbeatRecords.activationId, a.activationId));
      expect(records).toEqual([]);
    }
  });
});

describe("HMAC on heartbeat and deactivate", () => {
  it.each([HEARTBEAT, DEACTIVATE])(
    "%s: missing, malformed, stale and wrong signatures get their own 401",
    async (path) => {
      const { license, activationId, client } = await activated();
      const body = { licenseKey: license.licenseKey, activationId };
      const unsigned = await client.post(path, body);
      expect(unsigned.status).toBe(401);
      expect(unsigned.body).toEqual({ code: "hmac.missing", message: expect.any(String), status: 401 });
      const malformed = await client.post(path, body, {
        "x-service-timestamp": "now",
        "x-service-signature": "v1=zz",
      });
      expect(malformed.body.code).toBe("hmac.malformed");
      for (const skew of [-301, 301]) {
        const stale = await signedPost(client, app.clock.now(), path, body, { skewSeconds: skew });
        expect(stale.status).toBe(401);
        expect(stale.body.code).toBe("hmac.stale");
      }
      // The service's time, from its clock, so a client can correct its own.
      app.clock.advance(3 * DAY);
      const stale = await signedPost(client, new Date(0), path, body);
      expect(stale.headers.get("date")).toBe(app.clock.now().toUTCString());
      const wrongKey = await signedPost(client, app.clock.now(), path, body, { key: "SVC-NOT-THE-KEY" });
      expect(wrongKey.body.code).toBe("hmac.mismatch");
    },
  );

  it("accepts ±300 s of skew", async () => {
    const { license, activationId, client } = await activated();
    for (const skew of [-300, 300]) {
      const res = await beat(client, { licenseKey: license.licenseKey, activationId }, { skewSeconds: skew });
      expect(res.status).toBe(200);
    }
  });

  it("a v1-only request replayed with a changed body passes; with v2 it is refused", async () => {
    const { license, activationId, client } = await activated();
    const signed = { licenseKey: license.licenseKey, activationId };
    // v1 covers only the timestamp: the body can be swapped (here: another activation of the same key).
    const secondMachine = await client.post("/api/v1/client/activate", {
      licenseKey: license.licenseKey,
      hwFingerprint: "fp-2",
    });
    const second = secondMachine.body.activationId as string;
    const v1Replay = await beat(client, signed, {
      versions: "v1",
      sendBody: { ...signed, activationId: second },
    });
    expect(v1Replay.status).toBe(200);
    const v2Replay = await beat(client, signed, { sendBody: { ...signed, activationId: second } });
    expect(v2Replay.status).toBe(401);
    expect(v2Replay.body.code).toBe("hmac.mismatch");
    const v2Only = await beat(client, signed, {
      versions: "v2",
      sendBody: { ...signed, activationId: second },
    });
    expect(v2Only.body.code).toBe("hmac.mismatch");
  });
});

describe("POST /client/deactivate", () => {
  it("frees the seat, is idempotent, and writes license.deactivated once", async () => {
    const { license, activationId, client } = await activated({
      config: JSON.stringify({ limits: { maxSeats: 1 } }),
    });
    const body = { licenseKey: license.licenseKey, activationId };
    expect(
      (
        await client.post("/api/v1/client/activate", {
          licenseKey: license.licenseKey,
          hwFingerprint: "other",
        })
      ).body.code,
    ).toBe("activation.seat_limit_reached");
    expect((await signedPost(client, app.clock.now(), DEACTIVATE, body)).status).toBe(204);
    expect((await signedPost(client, app.clock.now(), DEACTIVATE, body)).status).toBe(204);
    const events = (await app.deps.db.select().from(tables.outboxEvents)).filter(
      (e) => e.eventType === "license.deactivated" && e.data.activationId === activationId,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual({ licenseId: license.id, licenseKey: license.licenseKey, activationId });
    const [row] = await app.deps.db
      .select()
      .from(tables.activations)
      .where(eq(tables.activations.id, activationId));
    expect(row).toMatchObject({ status: "deactivated", deactivatedAt: app.clock.now() });
    expect(
      (
        await client.post("/api/v1/client/activate", {
          licenseKey: license.licenseKey,
          hwFingerprint: "other",
        })
      ).status,
    ).toBe(200);
  });

  it("answers an activation of another license with 404", async () => {
    const { license, client } = await activated();
    const other = await activated();
    const res = await signedPost(client, app.clock.now(), DEACTIVATE, {
      licenseKey: license.licenseKey,
      activationId: other.activationId,
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("activation.not_found");
  });
});

describe("GET /client/public-key/{licenseKey}", () => {
  it("returns the license's public key, and 404 for an unknown key", async () => {
    const { license, client } = await activated();
    const res = await client.get(`/api/v1/client/public-key/${license.licenseKey}`);
    expect(res.body).toEqual({ publicKey: license.publicKey });
    const unknown = await client.get("/api/v1/client/public-key/SVC-00000-00000-00000-00000-00000");
    expect(unknown.status).toBe(404);
  });
});
