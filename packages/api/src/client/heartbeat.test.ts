import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY, MINUTE, verifyMarker } from "@licensing/core";
import { SIGNATURE_HEADERS } from "@licensing/protocol";
import { describe, expect, it } from "vitest";
import { signedPost, type SignOptions } from "../testing/client-api.ts";
import { useClientApi } from "../testing/client-fixture.ts";
import type { TestClient } from "../testing/index.ts";

const suite = useClientApi();

const HEARTBEAT = "/api/v1/client/heartbeat";
const DEACTIVATE = "/api/v1/client/deactivate";

const activated = (terms: Parameters<typeof suite.issue>[0] = {}) =>
  suite.activated({ offlineDays: 3, ...terms });

const beat = (
  client: TestClient,
  body: { licenseKey: string; activationId: string },
  options?: SignOptions,
) => suite.signed(client, "heartbeat", body, options);
const deactivate = (client: TestClient, body: { licenseKey: string; activationId: string }) =>
  suite.signed(client, "deactivate", body);

describe("POST /client/heartbeat", () => {
  it("returns a fresh marker with exp = now + offline days and records the heartbeat", async () => {
    const { license, activationId, client } = await activated();
    suite.app.clock.advance(10 * MINUTE);
    const res = await beat(client, { licenseKey: license.licenseKey, activationId });
    expect(res.status).toBe(200);
    const marker = verifyMarker(res.body.heartbeatToken, license.publicKey, { now: suite.app.clock.now() });
    expect(marker.valid && marker.payload).toMatchObject({
      lid: license.id,
      aid: activationId,
      fp: "fp",
      exp: Math.floor((suite.app.clock.now().getTime() + 3 * DAY) / 1000),
    });
    const heartbeats = await suite.operator.api.activations.heartbeats({ params: { id: license.id } });
    expect(heartbeats.body).toEqual([
      { id: expect.any(String), activationId, occurredAt: suite.app.clock.now().toISOString() },
    ]);
    const view = await suite.operator.api.licenses.get({ params: { id: license.id } });
    expect(view.body.lastHeartbeatAt).toBe(suite.app.clock.now().toISOString());
    const activations = await suite.operator.api.activations.list({ params: { id: license.id } });
    expect(activations.body[0]!.lastHeartbeatAt).toBe(suite.app.clock.now().toISOString());
  });

  it("answers license.not_active once the license is revoked, suspended or expired", async () => {
    for (const act of ["revoke", "suspend", "expire"] as const) {
      const { license, activationId, client } = await activated({
        expiresAt: new Date(suite.app.clock.now().getTime() + 2 * DAY).toISOString(),
      });
      if (act === "expire") suite.app.clock.advance(2 * DAY + 1000);
      else if (act === "revoke")
        await suite.operator.api.licenses.revoke({ params: { id: license.id }, body: {} });
      else await suite.operator.api.licenses.suspend({ params: { id: license.id } });
      const res = await beat(client, { licenseKey: license.licenseKey, activationId });
      expect(res.status, act).toBe(400);
      expect(res.error.code, act).toBe("license.not_active");
    }
  });

  it("answers an unknown key, another license's activation and a deactivated one with 404s", async () => {
    const { license, activationId, client } = await activated();
    const other = await activated();
    const unknownKey = await beat(client, { licenseKey: "SVC-00000-00000-00000-00000-00000", activationId });
    expect(unknownKey.status).toBe(404);
    expect(unknownKey.error.code).toBe("license.not_found");
    const foreign = await beat(client, { licenseKey: license.licenseKey, activationId: other.activationId });
    expect(foreign.error.code).toBe("activation.not_found");
    await deactivate(client, { licenseKey: license.licenseKey, activationId });
    const gone = await beat(client, { licenseKey: license.licenseKey, activationId });
    expect(gone.status).toBe(404);
    expect(gone.error.code).toBe("activation.not_found");
  });

  it("gives each of many simultaneous heartbeats its own answer", async () => {
    const live = await Promise.all(Array.from({ length: 12 }, () => activated()));
    const deactivated = await activated();
    await deactivate(deactivated.client, {
      licenseKey: deactivated.license.licenseKey,
      activationId: deactivated.activationId,
    });
    const revoked = await activated();
    await suite.operator.api.licenses.revoke({ params: { id: revoked.license.id }, body: {} });
    suite.app.clock.advance(MINUTE);

    const bodyOf = (a: { license: { licenseKey: string }; activationId: string }) => ({
      licenseKey: a.license.licenseKey,
      activationId: a.activationId,
    });
    const client = await suite.app.client();
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
        now: suite.app.clock.now(),
      });
      expect(marker.valid && marker.payload.aid, `activation ${i}`).toBe(live[i]!.activationId);
    });
    expect(repeated.status).toBe(200);
    expect(foreign.error.code).toBe("activation.not_found");
    expect(gone.error.code).toBe("activation.not_found");
    expect(notActive.error.code).toBe("license.not_active");

    for (const a of live.slice(1)) {
      const records = await suite.app.deps.db
        .select()
        .from(tables.heartbeatRecords)
        .where(eq(tables.heartbeatRecords.activationId, a.activationId));
      expect(records.map((r) => r.occurredAt.toISOString())).toEqual([suite.app.clock.now().toISOString()]);
    }
    for (const a of [deactivated, revoked]) {
      const records = await suite.app.deps.db
        .select()
        .from(tables.heartbeatRecords)
        .where(eq(tables.heartbeatRecords.activationId, a.activationId));
      expect(records).toEqual([]);
    }
  });
});

describe("HMAC on heartbeat and deactivate", () => {
  it.each([
    [HEARTBEAT, "heartbeat"],
    [DEACTIVATE, "deactivate"],
  ] as const)(
    "%s: missing, malformed, stale and wrong signatures get their own 401",
    async (path, operation) => {
      const { license, activationId, client } = await activated();
      const body = { licenseKey: license.licenseKey, activationId };
      const unsigned = await client.api.client[operation]({ body });
      expect(unsigned.status).toBe(401);
      expect(unsigned.error).toEqual({ code: "hmac.missing", message: expect.any(String), status: 401 });
      const malformed = await client.api.client[operation]({
        body,
        headers: { [SIGNATURE_HEADERS.timestamp]: "now", [SIGNATURE_HEADERS.signature]: "v1=zz" },
      });
      expect(malformed.error.code).toBe("hmac.malformed");
      for (const skew of [-301, 301]) {
        const stale = await suite.signed(client, operation, body, { skewSeconds: skew });
        expect(stale.status).toBe(401);
        expect(stale.error.code).toBe("hmac.stale");
      }
      // The service's time, from its clock, so a client can correct its own.
      suite.app.clock.advance(3 * DAY);
      const stale = await signedPost(client, new Date(0), path, body);
      expect(stale.headers.get("date")).toBe(suite.app.clock.now().toUTCString());
      const wrongKey = await suite.signed(client, operation, body, { key: "SVC-NOT-THE-KEY" });
      expect(wrongKey.error.code).toBe("hmac.mismatch");
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
    const secondMachine = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "fp-2" },
    });
    const second = secondMachine.body.activationId;
    const v1Replay = await beat(client, signed, {
      versions: "v1",
      sendBody: { ...signed, activationId: second },
    });
    expect(v1Replay.status).toBe(200);
    const v2Replay = await beat(client, signed, { sendBody: { ...signed, activationId: second } });
    expect(v2Replay.status).toBe(401);
    expect(v2Replay.error.code).toBe("hmac.mismatch");
    const v2Only = await beat(client, signed, {
      versions: "v2",
      sendBody: { ...signed, activationId: second },
    });
    expect(v2Only.error.code).toBe("hmac.mismatch");
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
        await client.api.client.activate({
          body: { licenseKey: license.licenseKey, hwFingerprint: "other" },
        })
      ).error.code,
    ).toBe("activation.seat_limit_reached");
    expect((await deactivate(client, body)).status).toBe(204);
    expect((await deactivate(client, body)).status).toBe(204);
    const events = (await suite.app.deps.db.select().from(tables.outboxEvents)).filter(
      (e) => e.eventType === "license.deactivated" && e.data.activationId === activationId,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual({ licenseId: license.id, licenseKey: license.licenseKey, activationId });
    const [row] = await suite.app.deps.db
      .select()
      .from(tables.activations)
      .where(eq(tables.activations.id, activationId));
    expect(row).toMatchObject({ status: "deactivated", deactivatedAt: suite.app.clock.now() });
    expect(
      (
        await client.api.client.activate({
          body: { licenseKey: license.licenseKey, hwFingerprint: "other" },
        })
      ).status,
    ).toBe(200);
  });

  it("answers an activation of another license with 404", async () => {
    const { license, client } = await activated();
    const other = await activated();
    const res = await deactivate(client, {
      licenseKey: license.licenseKey,
      activationId: other.activationId,
    });
    expect(res.status).toBe(404);
    expect(res.error.code).toBe("activation.not_found");
  });
});

describe("GET /client/public-key/{licenseKey}", () => {
  it("returns the license's public key, and 404 for an unknown key", async () => {
    const { license, client } = await activated();
    const res = await client.api.client.publicKey({ params: { licenseKey: license.licenseKey } });
    expect(res.body).toEqual({ publicKey: license.publicKey });
    const unknown = await client.api.client.publicKey({
      params: { licenseKey: "SVC-00000-00000-00000-00000-00000" },
    });
    expect(unknown.status).toBe(404);
  });
});
