import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY, sweepers } from "@licensing/core";
import { describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";

const suite = useClientApi();

const INTERVAL_MS = 900_000;
const eventsOf = async (type: string, licenseId: string) =>
  (await suite.app.deps.db.select().from(tables.outboxEvents)).filter(
    (e) => e.eventType === type && e.data.licenseId === licenseId,
  );

describe("expiry sweeper", () => {
  it("moves a license past expiresAt to Expired and emits license.expired once", async () => {
    const expiresAt = new Date(suite.app.clock.now().getTime() + DAY);
    const license = await suite.issue({ expiresAt: expiresAt.toISOString() });
    await sweepers.sweepExpiredLicenses(suite.app.deps);
    expect(await eventsOf("license.expired", license.id)).toHaveLength(0);

    suite.app.clock.advance(DAY);
    await sweepers.sweepExpiredLicenses(suite.app.deps);
    await sweepers.sweepExpiredLicenses(suite.app.deps);
    const [row] = await suite.app.deps.db
      .select()
      .from(tables.licenses)
      .where(eq(tables.licenses.id, license.id));
    expect(row!.status).toBe("Expired");
    const events = await eventsOf("license.expired", license.id);
    expect(events.map((e) => e.data)).toEqual([
      {
        licenseId: license.id,
        licenseKey: license.licenseKey,
        companyId: suite.target.companyId,
        expiresAt: expiresAt.toISOString(),
      },
    ]);
    const audit = await suite.app.deps.db
      .select()
      .from(tables.auditLog)
      .where(and(eq(tables.auditLog.entityId, license.id), eq(tables.auditLog.action, "license.expired")));
    expect(audit).toHaveLength(1);
  });

  it("never emits twice when instances sweep at the same time", async () => {
    const expiresAt = new Date(suite.app.clock.now().getTime() + DAY).toISOString();
    const issued = await Promise.all(Array.from({ length: 30 }, () => suite.issue({ expiresAt })));
    suite.app.clock.advance(DAY);
    const counts = await Promise.all(
      [1, 2, 3, 4].map(() => sweepers.sweepExpiredLicenses(suite.app.deps, 7)),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);
    for (const license of issued) expect(await eventsOf("license.expired", license.id)).toHaveLength(1);
  });
});

describe("silence detector", () => {
  it("emits license.heartbeat_missed once per silence of three intervals", async () => {
    const { license, activationId } = await suite.activated();
    suite.app.clock.advance(3 * INTERVAL_MS - 1000);
    await sweepers.detectMissedHeartbeats(suite.app.deps);
    expect(await eventsOf("license.heartbeat_missed", license.id)).toHaveLength(0);

    suite.app.clock.advance(1000);
    await sweepers.detectMissedHeartbeats(suite.app.deps);
    suite.app.clock.advance(10 * INTERVAL_MS);
    await sweepers.detectMissedHeartbeats(suite.app.deps);
    const first = await eventsOf("license.heartbeat_missed", license.id);
    expect(first.map((e) => e.data)).toEqual([
      { licenseId: license.id, licenseKey: license.licenseKey, activationId, lastHeartbeatAt: null },
    ]);

    // A heartbeat ends the silence; the next silence is reported again, once.
    const beat = await suite.signed(await suite.app.client(), "heartbeat", {
      licenseKey: license.licenseKey,
      activationId,
    });
    expect(beat.status).toBe(200);
    const heardAt = suite.app.clock.now().toISOString();
    await sweepers.detectMissedHeartbeats(suite.app.deps);
    expect(await eventsOf("license.heartbeat_missed", license.id)).toHaveLength(1);
    suite.app.clock.advance(3 * INTERVAL_MS);
    await Promise.all([
      sweepers.detectMissedHeartbeats(suite.app.deps),
      sweepers.detectMissedHeartbeats(suite.app.deps),
    ]);
    const all = await eventsOf("license.heartbeat_missed", license.id);
    expect(all.map((e) => e.data.lastHeartbeatAt).sort()).toEqual([heardAt, null].sort());
  });

  it("ignores deactivated activations and licenses that are no longer active", async () => {
    const deactivated = await suite.activated();
    await suite.signed(await suite.app.client(), "deactivate", {
      licenseKey: deactivated.license.licenseKey,
      activationId: deactivated.activationId,
    });
    const revoked = await suite.activated();
    await suite.operator.api.licenses.revoke({ params: { id: revoked.license.id }, body: {} });
    suite.app.clock.advance(4 * INTERVAL_MS);
    await sweepers.detectMissedHeartbeats(suite.app.deps);
    expect(await eventsOf("license.heartbeat_missed", deactivated.license.id)).toHaveLength(0);
    expect(await eventsOf("license.heartbeat_missed", revoked.license.id)).toHaveLength(0);
  });
});
