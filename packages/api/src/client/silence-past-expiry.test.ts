import { tables } from "@licensing/db";
import { DAY, sweepers } from "@licensing/core";
import { describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";

const suite = useClientApi();

describe("silence detector and the live-license rule", () => {
  it("reports no missed heartbeat for a license past its expiry that the expiry sweeper has not reached", async () => {
    const { app } = suite;
    const license = await suite.issue({
      expiresAt: new Date(app.clock.now().getTime() + DAY).toISOString(),
    });
    const activated = await (
      await app.client()
    ).api.client.activate({ body: { licenseKey: license.licenseKey, hwFingerprint: "fp" } });
    expect(activated.status).toBe(200);
    // Silent for a day and more: the license is Expired to every caller, though still Active in its row.
    app.clock.advance(DAY + 1000);
    await sweepers.detectMissedHeartbeats(app.deps);
    const missed = (await app.deps.db.select().from(tables.outboxEvents)).filter(
      (e) => e.eventType === "license.heartbeat_missed" && e.data.licenseId === license.id,
    );
    expect(missed).toEqual([]);
  });
});
