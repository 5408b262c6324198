import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY, sweepers, verifyOfflineResponse } from "@licensing/core";
import { decodeJsonSegment } from "@licensing/protocol";
import { OFFLINE_LABELS, armor, unarmor } from "@licensing/protocol/offline";
import { describe, expect, it } from "vitest";
import { createMember, createTokenClient } from "../testing/fixtures.ts";
import { useClientApi } from "../testing/client-fixture.ts";
import { createLicensedCompany, issueLicense, type IssuedLicense } from "../testing/client-api.ts";
import { newNonce, offlineReceipt, offlineRequest, type OfflineMachine } from "../testing/offline.ts";
import type { TestClient } from "../testing/http-client.ts";

const suite = useClientApi();

const withSeats = (maxSeats: number, terms: Parameters<typeof suite.issue>[0] = {}) =>
  suite.issue({ config: JSON.stringify({ features: [], limits: { maxSeats } }), ...terms });

function answer(license: IssuedLicense, request: string, validDays?: number, caller?: TestClient) {
  return (caller ?? suite.operator).api.activations.offlineActivate({
    params: { id: license.id },
    body: validDays === undefined ? { request } : { request, validDays },
  });
}
const deactivate = (receipt: string, caller?: TestClient) =>
  (caller ?? suite.operator).api.activations.offlineDeactivate({ body: { receipt } });

async function activateOffline(license: IssuedLicense, machine: OfflineMachine = {}, validDays?: number) {
  const nonce = machine.nonce ?? newNonce();
  const res = await answer(license, offlineRequest(license, { ...machine, nonce }), validDays);
  if (res.status !== 201) throw new Error(`offline activation failed: ${res.status} ${res.text}`);
  return { ...res.body, nonce };
}

/** The response's header and claims, once it verified with the license's public key. */
function certificate(license: IssuedLicense, response: string) {
  const verified = verifyOfflineResponse(response, license.publicKey);
  if (!verified.valid) throw new Error(verified.reason);
  return verified;
}
const tokenKeyId = (license: IssuedLicense) => decodeJsonSegment(license.token.split(".")[0]!)!.kid;
const tokenExpiry = (license: IssuedLicense) => decodeJsonSegment(license.token.split(".")[1]!)!.exp;

const db = () => suite.app.deps.db;
const activationRows = (licenseId: string) =>
  db().select().from(tables.activations).where(eq(tables.activations.licenseId, licenseId));
const liveSeats = async (licenseId: string) =>
  (await db().select().from(tables.licenses).where(eq(tables.licenses.id, licenseId)))[0]!.liveSeats;
const eventsOf = async (type: string, licenseId: string) =>
  (await db().select().from(tables.outboxEvents)).filter(
    (e) => e.eventType === type && e.data.licenseId === licenseId,
  );
const nothingStored = async (licenseId: string) => {
  expect(await activationRows(licenseId)).toEqual([]);
  expect(
    await db().select().from(tables.offlineRequests).where(eq(tables.offlineRequests.licenseId, licenseId)),
  ).toEqual([]);
  expect(await liveSeats(licenseId)).toBe(0);
};

describe("POST /licenses/{id}/offline-activations", () => {
  it("activates the machine offline, takes a seat, and answers a certificate signed with the template's key", async () => {
    const license = await withSeats(2);
    const nonce = newNonce();
    const request = offlineRequest(license, {
      fingerprint: "plant-7",
      machineName: "Line 7",
      nonce,
      components: [{ kind: "machine-id", hash: "a".repeat(64) }],
    });
    expect(request.length).toBeLessThanOrEqual(1200);
    const res = await answer(license, request);
    expect(res.status).toBe(201);
    const { header, claims } = certificate(license, res.body.response);
    expect(res.body.response.startsWith("-----BEGIN LICENSE ACTIVATION-----\n")).toBe(true);
    expect(header.kid).toBe(tokenKeyId(license));
    expect(claims).toEqual({
      lid: license.id,
      aid: res.body.activationId,
      fp: "plant-7",
      nonce,
      iat: Math.floor(suite.app.clock.now().getTime() / 1000),
      exp: tokenExpiry(license),
    });

    const listed = await suite.operator.api.activations.list({ params: { id: license.id } });
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: res.body.activationId,
        mode: "offline",
        status: "active",
        hwFingerprint: "plant-7",
        machineName: "Line 7",
        componentKinds: ["machine-id"],
      }),
    ]);
    expect(await liveSeats(license.id)).toBe(1);
    const [event] = await eventsOf("license.activated", license.id);
    expect(event!.data).toMatchObject({ activationId: res.body.activationId, mode: "offline" });
    const audit = await db()
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, res.body.activationId));
    expect(audit.map((row) => [row.action, row.actorEmail])).toEqual(
      expect.arrayContaining([
        ["license.activated", "root@example.com"],
        ["activation.offline_certificate", "root@example.com"],
      ]),
    );
  });

  it("publishes license.activated with mode online for the client API's activations", async () => {
    const { license } = await suite.activated();
    const [event] = await eventsOf("license.activated", license.id);
    expect(event!.data.mode).toBe("online");
  });

  it("makes the certificate valid validDays from now, never past the license's expiry", async () => {
    const expiresAt = new Date(suite.app.clock.now().getTime() + 60 * DAY).toISOString();
    const license = await suite.issue({ expiresAt });
    const now = Math.floor(suite.app.clock.now().getTime() / 1000);
    const thirty = await activateOffline(license, { fingerprint: "a" }, 30);
    expect(certificate(license, thirty.response).claims.exp).toBe(now + 30 * 86_400);
    const capped = await activateOffline(license, { fingerprint: "b" }, 365);
    expect(certificate(license, capped.response).claims.exp).toBe(Math.floor(Date.parse(expiresAt) / 1000));
  });

  it.each([0, -1, 1.5, 36_501, "30"])(
    "refuses validDays %j with request.invalid, storing nothing",
    async (validDays) => {
      const license = await suite.issue();
      const res = await suite.operator.post(`/api/v1/panel/licenses/${license.id}/offline-activations`, {
        request: offlineRequest(license),
        validDays,
      });
      expect(res.status).toBe(400);
      expect(res.error.code).toBe("request.invalid");
      expect(res.error.message).toMatch(/^body\.validDays: /);
      await nothingStored(license.id);
    },
  );

  describe("refuses a request it cannot trust with offline.request_invalid, storing nothing", () => {
    /** The block with one character changed, `at` counted from the end when negative. */
    const tamper = (text: string, at: number) => {
      const body = unarmor(OFFLINE_LABELS.request, text)!;
      const i = at < 0 ? body.length + at : at;
      const flipped = body.slice(0, i) + (body[i] === "A" ? "B" : "A") + body.slice(i + 1);
      return armor(OFFLINE_LABELS.request, flipped);
    };

    it.each([
      ["a changed character in the payload", (l: IssuedLicense) => tamper(offlineRequest(l), 40)],
      ["a changed character in the HMAC", (l: IssuedLicense) => tamper(offlineRequest(l), -3)],
      [
        "another key's HMAC",
        (l: IssuedLicense) => offlineRequest(l, { key: "SVC-00000-00000-00000-00000-00000" }),
      ],
      ["a block of another kind", (l: IssuedLicense) => offlineReceipt(l, l.id, newNonce())],
      ["text that holds no block", () => "please activate me"],
      ["a block cut short", (l: IssuedLicense) => offlineRequest(l).slice(0, 300)],
    ])("%s", async (_, make) => {
      const license = await suite.issue();
      const res = await answer(license, make(license));
      expect(res.status).toBe(400);
      expect(res.error.code).toBe("offline.request_invalid");
      await nothingStored(license.id);
    });

    it("a request for another license, even one signed with its own key", async () => {
      const license = await suite.issue();
      const other = await suite.issue();
      const res = await answer(license, offlineRequest(other));
      expect(res.status).toBe(400);
      expect(res.error).toMatchObject({
        code: "offline.request_invalid",
        message: expect.stringMatching(/not this one/),
      });
      await nothingStored(license.id);
      await nothingStored(other.id);
    });
  });

  it("applies the seat limit as an online activation does", async () => {
    const license = await withSeats(1);
    const online = await (
      await suite.app.client()
    ).api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "online-pc" },
    });
    expect(online.status).toBe(200);
    const res = await answer(license, offlineRequest(license, { fingerprint: "offline-pc" }));
    expect(res.status).toBe(409);
    expect(res.error).toMatchObject({
      code: "activation.seat_limit_reached",
      machines: [expect.objectContaining({ activationId: online.body.activationId })],
    });
    expect(await liveSeats(license.id)).toBe(1);
    expect(
      await db()
        .select()
        .from(tables.offlineRequests)
        .where(eq(tables.offlineRequests.licenseId, license.id)),
    ).toEqual([]);
  });

  it("applies the binding and the license's status as an online activation does", async () => {
    const fixed = await suite.issue({ hwBinding: "fixed", hwFingerprint: "the-one" });
    const refused = await answer(fixed, offlineRequest(fixed, { fingerprint: "another" }));
    expect([refused.status, refused.error.code]).toEqual([400, "activation.fingerprint_mismatch"]);
    expect((await answer(fixed, offlineRequest(fixed, { fingerprint: "the-one" }))).status).toBe(201);

    const revoked = await suite.issue();
    await suite.operator.api.licenses.revoke({ params: { id: revoked.id }, body: { reason: "refund" } });
    const res = await answer(revoked, offlineRequest(revoked));
    expect([res.status, res.error.code]).toEqual([400, "license.not_active"]);
    await nothingStored(revoked.id);
  });

  it("reuses the machine's live online activation, which becomes offline", async () => {
    const { license, activationId } = await suite.activated({}, { hwFingerprint: "laptop" });
    const offline = await activateOffline(license, { fingerprint: "laptop" });
    expect(offline.activationId).toBe(activationId);
    expect(await liveSeats(license.id)).toBe(1);
    const [row] = await activationRows(license.id);
    expect(row).toMatchObject({ mode: "offline", offlineNonce: offline.nonce });
  });

  it("answers the same request again with the same activation and no second seat or event", async () => {
    const license = await withSeats(3);
    const request = offlineRequest(license, { fingerprint: "again" });
    const first = await answer(license, request);
    suite.app.clock.advance(60_000);
    const second = await answer(license, request, 10);
    expect(second.status).toBe(201);
    expect(second.body.activationId).toBe(first.body.activationId);
    expect(certificate(license, second.body.response).claims.exp).toBe(
      Math.floor(suite.app.clock.now().getTime() / 1000) + 10 * 86_400,
    );
    expect(await liveSeats(license.id)).toBe(1);
    expect(await eventsOf("license.activated", license.id)).toHaveLength(1);
  });

  it("answers two concurrent copies of one request with one activation", async () => {
    const license = await withSeats(3);
    const request = offlineRequest(license, { fingerprint: "twice" });
    const [a, b] = await Promise.all([answer(license, request), answer(license, request)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.activationId).toBe(b.body.activationId);
    expect(await liveSeats(license.id)).toBe(1);
  });

  it("refuses a request answered before whose activation has ended, or that a newer request replaced", async () => {
    const license = await withSeats(3);
    const first = offlineRequest(license, { fingerprint: "m" });
    const { activationId, nonce } = await answer(license, first).then((r) => ({
      activationId: r.body.activationId,
      nonce: certificate(license, r.body.response).claims.nonce,
    }));
    const newer = await activateOffline(license, { fingerprint: "m" });
    expect(newer.activationId).toBe(activationId);
    const stale = await answer(license, first);
    expect([stale.status, stale.error.code]).toEqual([400, "offline.request_invalid"]);
    // The replaced certificate's receipt frees nothing; the newer one's does.
    expect((await deactivate(offlineReceipt(license, activationId, nonce))).error.code).toBe(
      "offline.receipt_invalid",
    );
    expect((await deactivate(offlineReceipt(license, activationId, newer.nonce))).status).toBe(200);
    const ended = await answer(license, offlineRequest(license, { fingerprint: "m", nonce: newer.nonce }));
    expect([ended.status, ended.error.code]).toEqual([400, "offline.request_invalid"]);
    expect(await liveSeats(license.id)).toBe(0);
  });
});

describe("POST /offline-deactivations", () => {
  it.each([
    ["in the one statement (no components)", undefined],
    ["under the lock (components that match the stored ones)", [{ kind: "disk-id", hash: "a".repeat(64) }]],
  ])(
    "a machine activated offline that activates online %s is online from then on: its receipt frees nothing",
    async (_, components) => {
      const license = await withSeats(1);
      const { activationId, nonce } = await activateOffline(license, {
        fingerprint: "went-online",
        ...(components ? { components } : {}),
      });
      const online = await suite.operator.api.client.activate({
        body: {
          licenseKey: license.licenseKey,
          hwFingerprint: "went-online",
          ...(components ? { components } : {}),
        },
      });
      expect([online.status, online.body.activationId]).toEqual([200, activationId]);
      const [row] = await activationRows(license.id);
      expect([row!.mode, row!.offlineNonce]).toEqual(["online", null]);
      const res = await deactivate(offlineReceipt(license, activationId, nonce));
      expect([res.status, res.error.code]).toEqual([400, "offline.receipt_invalid"]);
      expect(await liveSeats(license.id)).toBe(1);
    },
  );

  it("frees the seat of the certificate the receipt names, once; the same receipt again answers the same", async () => {
    const license = await withSeats(1);
    const { activationId, nonce } = await activateOffline(license);
    const receipt = offlineReceipt(license, activationId, nonce, { iat: 1_800_000_000 });
    const res = await deactivate(receipt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ licenseId: license.id, activationId });
    expect(await liveSeats(license.id)).toBe(0);
    const [row] = await activationRows(license.id);
    expect(row!.status).toBe("deactivated");

    const again = await deactivate(receipt);
    expect([again.status, again.body]).toEqual([200, { licenseId: license.id, activationId }]);
    expect(await eventsOf("license.deactivated", license.id)).toHaveLength(1);
    const audit = await db()
      .select()
      .from(tables.auditLog)
      .where(
        and(eq(tables.auditLog.entityId, activationId), eq(tables.auditLog.action, "license.deactivated")),
      );
    expect(audit.map((a) => [a.actorEmail, a.meta])).toEqual([
      ["root@example.com", { licenseId: license.id, reason: "offline.receipt" }],
    ]);
    // The freed seat takes another machine.
    expect((await answer(license, offlineRequest(license, { fingerprint: "next" }))).status).toBe(201);
  });

  it("refuses a forged, changed or unknown receipt with offline.receipt_invalid, freeing nothing", async () => {
    const license = await withSeats(2);
    const { activationId, nonce } = await activateOffline(license);
    const online = await (
      await suite.app.client()
    ).api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "online" },
    });
    const valid = offlineReceipt(license, activationId, nonce);
    const body = unarmor(OFFLINE_LABELS.receipt, valid)!;
    const changed = armor(
      OFFLINE_LABELS.receipt,
      body.replace(/.(?=\.)/, (c) => (c === "A" ? "B" : "A")),
    );
    const other = await suite.issue();
    for (const receipt of [
      offlineReceipt(license, activationId, nonce, { key: "SVC-00000-00000-00000-00000-00000" }),
      changed,
      offlineReceipt(license, activationId, newNonce()),
      offlineReceipt(license, "00000000-0000-4000-8000-000000000000", nonce),
      offlineReceipt(license, online.body.activationId, nonce),
      offlineReceipt({ id: other.id, licenseKey: other.licenseKey }, activationId, nonce),
      offlineReceipt(
        { id: "00000000-0000-4000-8000-000000000000", licenseKey: license.licenseKey },
        activationId,
        nonce,
      ),
      offlineRequest(license),
      "no receipt here",
    ]) {
      const res = await deactivate(receipt);
      expect([res.status, res.error.code], receipt).toEqual([400, "offline.receipt_invalid"]);
    }
    expect(await liveSeats(license.id)).toBe(2);
  });

  it("is as unknown for a license outside the caller's companies", async () => {
    const license = await suite.issue();
    const { activationId, nonce } = await activateOffline(license);
    const elsewhere = await createLicensedCompany(suite.operator);
    const { client } = await createTokenClient(suite.app, { id: elsewhere.companyId });
    const res = await deactivate(offlineReceipt(license, activationId, nonce), client);
    expect([res.status, res.error.code]).toEqual([400, "offline.receipt_invalid"]);
    expect(await liveSeats(license.id)).toBe(1);
  });
});

describe("who may answer requests and receipts", () => {
  it("an Admin of the license's company may; a Viewer is refused and changes nothing", async () => {
    const license = await suite.issue();
    const viewer = await createMember(suite.app, { companyId: suite.target.companyId, role: "viewer" });
    const admin = await createMember(suite.app, { companyId: suite.target.companyId, role: "admin" });
    const nonce = newNonce();
    const refused = await answer(license, offlineRequest(license, { nonce }), undefined, viewer.client);
    expect([refused.status, refused.error.code]).toEqual([403, "auth.forbidden"]);
    await nothingStored(license.id);

    const ok = await answer(license, offlineRequest(license, { nonce }), undefined, admin.client);
    expect(ok.status).toBe(201);
    const receipt = offlineReceipt(license, ok.body.activationId, nonce);
    const viewerReceipt = await deactivate(receipt, viewer.client);
    expect([viewerReceipt.status, viewerReceipt.error.code]).toEqual([403, "auth.forbidden"]);
    expect(await liveSeats(license.id)).toBe(1);
    expect((await deactivate(receipt, admin.client)).status).toBe(200);
  });

  it("a license outside the caller's companies is not found", async () => {
    const elsewhere = await createLicensedCompany(suite.operator);
    const license = await issueLicense(suite.operator, elsewhere);
    const member = await createMember(suite.app, { companyId: suite.target.companyId, role: "owner" });
    const res = await answer(license, offlineRequest(license), undefined, member.client);
    expect([res.status, res.error.code]).toEqual([404, "license.not_found"]);
    await nothingStored(license.id);
  });
});

// Last: it moves the clock past every session's lifetime.
describe("the silence detector", () => {
  it("leaves offline activations out of the silence detector", async () => {
    const license = await suite.issue();
    await activateOffline(license);
    suite.app.clock.advance(10 * DAY);
    await sweepers.detectMissedHeartbeats(suite.app.deps);
    expect(await eventsOf("license.heartbeat_missed", license.id)).toEqual([]);
  });
});
