import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY, verifyMarker } from "@licensing/core";
import { describe, expect, it, vi } from "vitest";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "../testing/api-client.ts";
import type { IssuedLicense } from "../testing/client-api.ts";
import { useClientApi } from "../testing/client-fixture.ts";

const suite = useClientApi();

const ACTIVATE = "/api/v1/client/activate";
const activate = async (body: BodyOf<typeof operations.client.activate>) =>
  (await suite.app.client()).api.client.activate({ body });
/** A request the schema refuses, sent as it is. */
const activateUntyped = async (body: Record<string, unknown>) =>
  (await suite.app.client()).post(ACTIVATE, body);
const getLicense = async (id: string) => (await suite.operator.api.licenses.get({ params: { id } })).body;

describe("POST /client/activate", () => {
  it("returns an activation, a marker that verifies with the license's public key, and the intervals", async () => {
    const license = await suite.issue({ offlineDays: 5 });
    const res = await activate({
      licenseKey: license.licenseKey,
      hwFingerprint: "fp-1",
      machineName: "Build box",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      activationId: expect.any(String),
      heartbeatToken: expect.any(String),
      heartbeatIntervalSeconds: 900,
      maxOfflineDays: 5,
      healed: false,
    });
    const marker = verifyMarker(res.body.heartbeatToken, license.publicKey, { now: suite.app.clock.now() });
    expect(marker).toEqual({
      valid: true,
      payload: {
        lid: license.id,
        aid: res.body.activationId,
        fp: "fp-1",
        iat: Math.floor(suite.app.clock.now().getTime() / 1000),
        exp: Math.floor((suite.app.clock.now().getTime() + 5 * DAY) / 1000),
      },
    });
    const panel = await getLicense(license.id);
    expect(panel.activatedAt).toBe(suite.app.clock.now().toISOString());
  });

  it("writes license.activated (with clientIp) and an audit row for a new machine only", async () => {
    const license = await suite.issue();
    const first = await activate({ licenseKey: license.licenseKey, hwFingerprint: "fp-a", machineName: "A" });
    const again = await activate({ licenseKey: license.licenseKey, hwFingerprint: "fp-a" });
    expect(again.body.activationId).toBe(first.body.activationId);
    const events = (await suite.app.deps.db.select().from(tables.outboxEvents)).filter(
      (e) => e.eventType === "license.activated" && e.data.licenseId === license.id,
    );
    expect(events.map((e) => e.data)).toEqual([
      {
        licenseId: license.id,
        licenseKey: license.licenseKey,
        activationId: first.body.activationId,
        hwFingerprint: "fp-a",
        machineName: "A",
        clientIp: expect.stringMatching(/127\.0\.0\.1/),
        mode: "online",
      },
    ]);
    const audit = await suite.app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, first.body.activationId));
    expect(audit).toEqual([
      expect.objectContaining({
        action: "license.activated",
        actorEmail: null,
        entityType: "activation",
        meta: { licenseId: license.id, hwFingerprint: "fp-a", machineName: "A", pinned: false },
        ipAddress: expect.stringMatching(/127\.0\.0\.1/),
        occurredAt: suite.app.clock.now(),
      }),
    ]);
  });

  it("records in the audit row that a first activation pinned the license to its machine", async () => {
    const license = await suite.issue({ hwBinding: "firstActivation" });
    const first = await activate({ licenseKey: license.licenseKey, hwFingerprint: "fp-pin" });
    const view = await getLicense(license.id);
    expect(view).toMatchObject({ hwBinding: "firstActivation", hwFingerprint: "fp-pin" });
    const [audit] = await suite.app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, first.body.activationId));
    expect(audit!.meta).toEqual({
      licenseId: license.id,
      hwFingerprint: "fp-pin",
      machineName: null,
      pinned: true,
    });
  });

  it("takes no machine name, or null for none (as SDKs send it when the host has no name)", async () => {
    const license = await suite.issue();
    const absent = await activate({ licenseKey: license.licenseKey, hwFingerprint: "no-name-1" });
    const none = await activate({
      licenseKey: license.licenseKey,
      hwFingerprint: "no-name-2",
      machineName: null,
    });
    expect([absent.status, none.status]).toEqual([200, 200]);
    const machines = (await suite.operator.api.activations.list({ params: { id: license.id } })).body;
    expect(machines.map((m) => m.machineName)).toEqual([null, null]);
  });

  it("accepts a license key typed in lower case or with look-alike letters", async () => {
    const license = await suite.issue();
    const typed = license.licenseKey.toLowerCase().replace(/0/g, "o");
    expect((await activate({ licenseKey: typed })).status).toBe(200);
  });

  // Equal time for unknown keys, shown without timing requests on this machine: every not_found answer
  // (a well-formed unknown key, or text that cannot be a key) waits in the activation latency mirror's
  // padFailure, and every success feeds its average; latency-mirror.test.ts shows on a manual stopwatch
  // that padFailure brings a failure to that average (decision 0044).
  it("answers an unknown key with 404 license.not_found, padded to the time real activations take", async () => {
    const license = await suite.issue();
    const mirror = suite.app.deps.activations.activateLatency;
    const padded = vi.spyOn(mirror, "padFailure");
    const recorded = vi.spyOn(mirror, "recordSuccess");
    try {
      const missing = await activate({
        licenseKey: "SVC-00000-00000-00000-00000-00000",
        hwFingerprint: "fp-1",
      });
      expect(missing.status).toBe(404);
      expect(missing.error).toEqual({
        code: "license.not_found",
        message: expect.any(String),
        status: 404,
      });
      const notAKey = await activate({ licenseKey: "not-a-license-key", hwFingerprint: "fp-2" });
      expect(notAKey.error).toEqual(missing.error);
      expect(padded).toHaveBeenCalledTimes(2);
      expect(recorded).not.toHaveBeenCalled();

      expect((await activate({ licenseKey: license.licenseKey, hwFingerprint: "fp-3" })).status).toBe(200);
      expect(recorded).toHaveBeenCalledTimes(1);
      expect(padded).toHaveBeenCalledTimes(2);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it.each([
    ["a missing key", {}, "body.licenseKey"],
    ["a key of the wrong type", { licenseKey: 42 }, "body.licenseKey"],
    [
      "an over-long fingerprint",
      { licenseKey: "SVC-1", hwFingerprint: "x".repeat(257) },
      "body.hwFingerprint",
    ],
    ["an over-long machine name", { licenseKey: "SVC-1", machineName: "x".repeat(201) }, "body.machineName"],
  ])("answers %s with a 400 naming the field", async (_name, body, field) => {
    const res = await activateUntyped(body);
    expect(res.status).toBe(400);
    expect(res.error.message).toMatch(new RegExp(`^${field.replace(".", "\\.")}: `));
  });
});

describe("license state", () => {
  async function licenseIn(state: "revoked" | "suspended" | "expired") {
    const license = await suite.issue({
      expiresAt: new Date(suite.app.clock.now().getTime() + DAY).toISOString(),
    });
    if (state === "revoked")
      await suite.operator.api.licenses.revoke({ params: { id: license.id }, body: { reason: "refund" } });
    if (state === "suspended") await suite.operator.api.licenses.suspend({ params: { id: license.id } });
    return license;
  }

  it.each(["revoked", "suspended"] as const)(
    "refuses to activate a %s license with license.not_active",
    async (state) => {
      const license = await licenseIn(state);
      const res = await activate({ licenseKey: license.licenseKey });
      expect(res.status).toBe(400);
      expect(res.error.code).toBe("license.not_active");
    },
  );

  it("refuses to activate a license past its expiry, before and after the sweeper ran", async () => {
    const license = await licenseIn("expired");
    suite.app.clock.advance(DAY + 1000);
    expect((await activate({ licenseKey: license.licenseKey })).error.code).toBe("license.not_active");
  });
});

describe("hardware binding (spec §4 activation table)", () => {
  const issueBound = (terms: Parameters<typeof suite.issue>[0]) => suite.issue(terms);
  const codeOf = async (license: IssuedLicense, hwFingerprint?: string) => {
    const res = await activate({
      licenseKey: license.licenseKey,
      ...(hwFingerprint ? { hwFingerprint } : {}),
    });
    return res.status === 200 ? "ok" : `${res.status} ${res.error.code}`;
  };

  it("none: any machine, fingerprint optional", async () => {
    const license = await issueBound({ hwBinding: "none" });
    expect(await codeOf(license)).toBe("ok");
    expect(await codeOf(license, "machine-a")).toBe("ok");
    expect(await codeOf(license, "machine-b")).toBe("ok");
  });

  it("fixed: only the machine set at issue", async () => {
    const license = await issueBound({ hwFingerprint: "machine-a" });
    expect(await codeOf(license, "machine-b")).toBe("400 activation.fingerprint_mismatch");
    expect(await codeOf(license)).toBe("400 activation.fingerprint_mismatch");
    expect(await codeOf(license, "machine-a")).toBe("ok");
  });

  it("fixed with its machine released: activation.not_bound until a rebind", async () => {
    const license = await issueBound({ hwFingerprint: "machine-a" });
    await suite.app.deps.db
      .update(tables.licenses)
      .set({ hwFingerprint: null })
      .where(eq(tables.licenses.id, license.id));
    expect(await codeOf(license, "machine-a")).toBe("409 activation.not_bound");
    const rebound = await suite.operator.api.licenses.rebind({
      params: { id: license.id },
      body: { hwFingerprint: "machine-b" },
    });
    expect(rebound.status).toBe(200);
    expect(await codeOf(license, "machine-b")).toBe("ok");
  });

  it("firstActivation: needs a fingerprint, pins the first machine, then behaves as fixed", async () => {
    const license = await issueBound({ hwBinding: "firstActivation" });
    expect(await codeOf(license)).toBe("400 activation.fingerprint_required");
    expect(await codeOf(license, "machine-a")).toBe("ok");
    expect(await getLicense(license.id)).toMatchObject({
      hwBinding: "firstActivation",
      hwFingerprint: "machine-a",
    });
    expect(await codeOf(license, "machine-b")).toBe("400 activation.fingerprint_mismatch");
    expect(await codeOf(license, "machine-a")).toBe("ok");
  });

  it("firstActivation: of two first activations from different machines at once, exactly one wins", async () => {
    for (let round = 0; round < 5; round++) {
      const license = await issueBound({ hwBinding: "firstActivation" });
      const results = await Promise.all(
        ["machine-a", "machine-b", "machine-c", "machine-d"].map((fp) => codeOf(license, fp)),
      );
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect(results.filter((r) => r === "400 activation.fingerprint_mismatch")).toHaveLength(3);
    }
  });

  it("rebind to none releases the machine for any other", async () => {
    const license = await issueBound({ hwFingerprint: "machine-a" });
    await suite.operator.api.licenses.rebind({
      params: { id: license.id },
      body: { hwFingerprint: null, hwBinding: "none" },
    });
    expect(await codeOf(license, "machine-z")).toBe("ok");
  });
});
