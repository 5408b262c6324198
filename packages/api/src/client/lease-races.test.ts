import { and, eq, gt, isNull } from "drizzle-orm";
import { tables } from "@licensing/db";
import { describe, expect, it } from "vitest";
import type { IssuedLicense } from "../testing/client-api.ts";
import { useClientApi } from "../testing/client-fixture.ts";

/** Issue 23: the count of live leases is taken under the license row's lock, so a pool is never oversold. */
const suite = useClientApi();

async function floatingWithMachines(maxSeats: number, machines: number) {
  const license = await suite.issue({
    seatModel: "floating",
    config: JSON.stringify({ features: [], limits: { maxSeats } }),
  });
  const client = await suite.app.client();
  const activationIds: string[] = [];
  for (let i = 0; i < machines; i++) {
    const res = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: `race-${i}` },
    });
    activationIds.push(res.body.activationId);
  }
  return { license, client, activationIds };
}

async function liveInDatabase(license: IssuedLicense) {
  const s = tables.leases;
  const rows = await suite.app.deps.db
    .select({ id: s.id, activationId: s.activationId })
    .from(s)
    .where(
      and(
        eq(s.licenseId, license.id),
        isNull(s.releasedAt),
        eq(s.lapsed, false),
        gt(s.expiresAt, suite.app.clock.now()),
      ),
    );
  return rows;
}

describe("concurrent leases", () => {
  it("50 acquires at once on 5 seats: exactly 5 live, 5 times over", async () => {
    for (let round = 0; round < 5; round++) {
      const { license, client, activationIds } = await floatingWithMachines(5, 50);
      const answers = await Promise.all(
        activationIds.map((activationId) =>
          suite.signed(client, "acquireLease", { licenseKey: license.licenseKey, activationId }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 201),
        `round ${round}`,
      ).toHaveLength(5);
      expect(
        statuses.filter((s) => s === 409),
        `round ${round}`,
      ).toHaveLength(45);
      expect(
        answers.filter((a) => a.status === 409).every((a) => a.error.code === "lease.seats_exhausted"),
      ).toBe(true);
      const live = await liveInDatabase(license);
      expect(live, `round ${round}`).toHaveLength(5);
      expect(new Set(live.map((l) => l.activationId)).size).toBe(5);
    }
  });

  it("expired holders renewing while others acquire: never more live than seats", async () => {
    const { license, client, activationIds } = await floatingWithMachines(5, 25);
    const holders = activationIds.slice(0, 5);
    const leaseIds: string[] = [];
    for (const activationId of holders) {
      const res = await suite.signed(client, "acquireLease", {
        licenseKey: license.licenseKey,
        activationId,
      });
      leaseIds.push(res.body.leaseId);
    }
    suite.app.clock.advance(901_000);
    const answers = await Promise.all([
      ...leaseIds.map((leaseId) =>
        suite.signed(client, "renewLease", { licenseKey: license.licenseKey, leaseId }),
      ),
      ...activationIds
        .slice(5)
        .map((activationId) =>
          suite.signed(client, "acquireLease", { licenseKey: license.licenseKey, activationId }),
        ),
    ]);
    const won = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(won).toHaveLength(5);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(20);
    expect(await liveInDatabase(license)).toHaveLength(5);
  });

  it("one activation acquiring many times at once holds one lease", async () => {
    const { license, client, activationIds } = await floatingWithMachines(3, 1);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        suite.signed(client, "acquireLease", {
          licenseKey: license.licenseKey,
          activationId: activationIds[0]!,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array.from({ length: 19 }, () => 200), 201]);
    expect(new Set(answers.map((a) => a.body.leaseId)).size).toBe(1);
    expect(await liveInDatabase(license)).toHaveLength(1);
  });
});
