import { DomainEvent, EVENT_TYPES } from "@licensing/contracts";
import { DAY, sweepers } from "@licensing/core";
import { tables } from "@licensing/db";
import { describe, expect, it } from "vitest";
import { createLicensedCompany } from "../testing/client-api.ts";
import { useClientApi } from "../testing/client-fixture.ts";

const suite = useClientApi();

const outbox = () => suite.app.deps.db.select().from(tables.outboxEvents);

describe("outbox events", () => {
  it("every event a change writes, from TypeScript or from raw SQL, matches its contract", async () => {
    const { app, operator } = suite;
    const other = await createLicensedCompany(operator);
    const client = await app.client();
    const activate = async (licenseKey: string, hwFingerprint: string) => {
      const res = await client.api.client.activate({
        body: { licenseKey, hwFingerprint, machineName: "pc" },
      });
      expect(res.status).toBe(200);
      return res.body.activationId;
    };

    // issued, activated (one SQL statement), deactivated (by the client), revoked
    const revoked = await suite.issue();
    const activationId = await activate(revoked.licenseKey, "fp-1");
    const deactivated = await suite.signed(client, "deactivate", {
      licenseKey: revoked.licenseKey,
      activationId,
    });
    expect(deactivated.status).toBeLessThan(300);
    expect(
      (await operator.api.licenses.revoke({ params: { id: revoked.id }, body: { reason: "refund" } })).status,
    ).toBe(204);

    // transferred and rebound, each ending a live activation
    const moved = await suite.issue();
    await activate(moved.licenseKey, "fp-2");
    expect(
      (
        await operator.api.licenses.transfer({
          params: { id: moved.id },
          body: { newCompanyId: other.companyId },
        })
      ).status,
    ).toBe(200);
    await activate(moved.licenseKey, "fp-3");
    expect(
      (
        await operator.api.licenses.rebind({
          params: { id: moved.id },
          body: { hwFingerprint: "fp-4", reason: "new pc" },
        })
      ).status,
    ).toBe(200);

    // activation_healed (a machine recognised by its components), device_budget_exhausted (a new device
    // over a budget of one)
    const drifting = await suite.issue({ maxNewDevicesPerWindow: 1 });
    const components = (...hashes: number[]) =>
      hashes.map((n, i) => ({ kind: `kind-${i}`, hash: n.toString(16).padStart(64, "0") }));
    const machine = (hwFingerprint: string, ...hashes: number[]) =>
      client.api.client.activate({
        body: { licenseKey: drifting.licenseKey, hwFingerprint, components: components(...hashes) },
      });
    expect((await machine("fp-6", 1, 2, 3, 4, 5)).status).toBe(200);
    expect((await machine("fp-7", 1, 2, 3, 4, 9)).body.healed).toBe(true);
    expect((await machine("fp-8", 6, 7, 8, 9, 10)).status).toBe(429);

    // seats_exhausted: a floating license's second machine finds its one seat leased
    const pool = await suite.issue({
      seatModel: "floating",
      config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }),
    });
    const lease = async (hwFingerprint: string) => {
      const activationId = await activate(pool.licenseKey, hwFingerprint);
      return suite.signed(client, "acquireLease", { licenseKey: pool.licenseKey, activationId });
    };
    expect((await lease("fp-9")).status).toBe(201);
    expect((await lease("fp-10")).status).toBe(409);

    // heartbeat_missed (raw SQL sweeper), then expired (sweeper)
    const silent = await suite.issue({
      expiresAt: new Date(app.clock.now().getTime() + 2 * DAY).toISOString(),
    });
    await activate(silent.licenseKey, "fp-5");
    app.clock.advance(DAY);
    expect(await sweepers.detectMissedHeartbeats(app.deps)).toBeGreaterThan(0);
    app.clock.advance(2 * DAY);
    expect(await sweepers.sweepExpiredLicenses(app.deps)).toBeGreaterThan(0);

    const rows = await outbox();
    expect(new Set(rows.map((row) => row.eventType))).toEqual(new Set(EVENT_TYPES));
    for (const row of rows) {
      const parsed = DomainEvent.safeParse({ type: row.eventType, data: row.data });
      expect(parsed.error, `${row.eventType} ${JSON.stringify(row.data)}`).toBeUndefined();
    }
  });

  it("the contract refuses an unknown type, a missing field and an extra one", () => {
    const data = {
      licenseId: "7b1f3c1e-8a55-4c1e-9f3e-2f4b8f0f6a11",
      licenseKey: "SVC-AAAAA-AAAAA-AAAAA-AAAAA-AAAAA",
      activationId: "0d6c1f7a-2a0b-4c6e-8d1f-5b2f0c1e9a22",
    };
    expect(DomainEvent.safeParse({ type: "license.deactivated", data }).success).toBe(true);
    expect(DomainEvent.safeParse({ type: "license.renamed", data }).success).toBe(false);
    expect(
      DomainEvent.safeParse({ type: "license.deactivated", data: { ...data, activationId: undefined } })
        .success,
    ).toBe(false);
    expect(DomainEvent.safeParse({ type: "license.deactivated", data: { ...data, extra: 1 } }).success).toBe(
      false,
    );
  });
});
