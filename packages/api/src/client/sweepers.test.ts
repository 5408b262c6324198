import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY, sweepers } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLicensedCompany, issueLicense, signedPost } from "../testing/client-api.ts";
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

const INTERVAL_MS = 900_000;
const eventsOf = async (type: string, licenseId: string) =>
  (await app.deps.db.select().from(tables.outboxEvents)).filter(
    (e) => e.eventType === type && e.data.licenseId === licenseId,
  );

describe("expiry sweeper", () => {
  it("moves a license past expiresAt to Expired and emits license.expired once", async () => {
    const expiresAt = new Date(app.clock.now().getTime() + DAY);
    const license = await issueLicense(operator, target, { expiresAt: expiresAt.toISOString() });
    await sweepers.sweepExpiredLicenses(app.deps);
    expect(await eventsOf("license.expired", license.id)).toHaveLength(0);

    app.clock.advance(DAY);
    await sweepers.sweepExpiredLicenses(app.deps);
    await sweepers.sweepExpiredLicenses(app.deps);
    const [row] = await app.deps.db.select().from(tables.licenses).where(eq(tables.licenses.id, license.id));
    expect(row!.status).toBe("Expired");
    const events = await eventsOf("license.expired", license.id);
    expect(events.map((e) => e.data)).toEqual([
      {
        licenseId: license.id,
        licenseKey: license.licenseKey,
        companyId: target.companyId,
        expiresAt: expiresAt.toISOString(),
      },
    ]);
    const audit = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(and(eq(tables.auditLog.entityId, license.id), eq(tables.auditLog.action, "license.expired")));
    expect(audit).toHaveLength(1);
  });

  it("never emits twice when instances sweep at the same time", async () => {
    const expiresAt = new Date(app.clock.now().getTime() + DAY).toISOString();
    const issued = await Promise.all(
      Array.from({ length: 30 }, () => issueLicense(operator, target, { expiresAt })),
    );
    app.clock.advance(DAY);
    const counts = await Promise.all([1, 2, 3, 4].map(() => sweepers.sweepExpiredLicenses(app.deps, 7)));
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);
    for (const license of issued) expect(await eventsOf("license.expired", license.id)).toHaveLength(1);
  });
});

describe("silence detector", () => {
  async function activatedLicense() {
    const license = await issueLicense(operator, target);
    const res = await (
      await app.client()
    ).post("/api/v1/client/activate", {
      licenseKey: license.licenseKey,
      hwFingerprint: "fp",
    });
    return { license, activationId: res.body.activationId as string };
  }

  it("emits license.heartbeat_missed once per silence of three intervals", async () => {
    const { license, activationId } = await activatedLicense();
    app.clock.advance(3 * INTERVAL_MS - 1000);
    await sweepers.detectMissedHeartbeats(app.deps);
    expect(await eventsOf("license.heartbeat_missed", license.id)).toHaveLength(0);

    app.clock.advance(1000);
    await sweepers.detectMissedHeartbeats(app.deps);
    app.clock.advance(10 * INTERVAL_MS);
    await sweepers.detectMissedHeartbeats(app.deps);
    const first = await eventsOf("license.heartbeat_missed", license.id);
    expect(first.map((e) => e.data)).toEqual([
      { licenseId: license.id, licenseKey: license.licenseKey, activationId, lastHeartbeatAt: null },
    ]);

    // A heartbeat ends the silence; the next silence is reported again, once.
    const beat = await signedPost(await app.client(), app.clock.now(), "/api/v1/client/heartbeat", {
      licenseKey: license.licenseKey,
      activationId,
    });
    expect(beat.status).toBe(200);
    const heardAt = app.clock.now().toISOString();
    await sweepers.detectMissedHeartbeats(app.deps);
    expect(await eventsOf("license.heartbeat_missed", license.id)).toHaveLength(1);
    app.clock.advance(3 * INTERVAL_MS);
    await Promise.all([sweepers.detectMissedHeartbeats(app.deps), sweepers.detectMissedHeartbeats(app.deps)]);
    const all = await eventsOf("license.heartbeat_missed", license.id);
    expect(all.map((e) => e.data.lastHeartbeatAt).sort()).toEqual([heardAt, null].sort());
  });

  it("ignores deactivated activations and licenses that are no longer active", async () => {
    const deactivated = await activatedLicense();
    await signedPost(await app.client(), app.clock.now(), "/api/v1/client/deactivate", {
      licenseKey: deactivated.license.licenseKey,
      activationId: deactivated.activationId,
    });
    const revoked = await activatedLicense();
    await operator.post(`/api/v1/panel/licenses/${revoked.license.id}/revoke`, {});
    app.clock.advance(4 * INTERVAL_MS);
    await sweepers.detectMissedHeartbeats(app.deps);
    expect(await eventsOf("license.heartbeat_missed", deactivated.license.id)).toHaveLength(0);
    expect(await eventsOf("license.heartbeat_missed", revoked.license.id)).toHaveLength(0);
  });
});
