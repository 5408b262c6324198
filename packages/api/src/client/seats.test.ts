import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";

const suite = useClientApi();

const withSeats = (maxSeats: unknown) =>
  suite.issue({ config: JSON.stringify({ features: [], limits: { maxSeats } }) });

async function activate(licenseKey: string, hwFingerprint: string) {
  const client = await suite.app.client();
  return client.api.client.activate({ body: { licenseKey, hwFingerprint } });
}

async function seatsInUse(licenseId: string) {
  const [row] = await suite.app.deps.db
    .select({ liveSeats: tables.licenses.liveSeats })
    .from(tables.licenses)
    .where(eq(tables.licenses.id, licenseId));
  return row!.liveSeats;
}

async function activeCount(licenseId: string) {
  const rows = await suite.app.deps.db
    .select()
    .from(tables.activations)
    .where(and(eq(tables.activations.licenseId, licenseId), eq(tables.activations.status, "active")));
  return rows.length;
}

describe("seat limit (config.limits.maxSeats)", () => {
  it("caps active activations; a known machine reuses its seat", async () => {
    const license = await withSeats(2);
    const a = await activate(license.licenseKey, "a");
    expect(a.status).toBe(200);
    suite.app.clock.advance(1000);
    const b = await activate(license.licenseKey, "b");
    expect(b.status).toBe(200);
    expect((await activate(license.licenseKey, "a")).status).toBe(200);
    const full = await activate(license.licenseKey, "c");
    expect(full.status).toBe(409);
    // The machines holding the seats come with the refusal, oldest first, so one can be freed at once.
    expect(full.error).toEqual({
      code: "activation.seat_limit_reached",
      message: expect.any(String),
      status: 409,
      machines: [a, b].map((res) => ({
        activationId: res.body.activationId,
        machineName: null,
        activatedAt: expect.any(String),
        lastHeartbeatAt: null,
      })),
    });
    expect(JSON.stringify(full.error)).not.toMatch(/"a"|"b"|hwFingerprint|components/);
    expect(await activeCount(license.id)).toBe(2);
  });

  it.each([[0], ["5"], [null], [-1], [2.5]])("treats maxSeats %j as no limit", async (maxSeats) => {
    const license = await withSeats(maxSeats);
    for (let i = 0; i < 6; i++) expect((await activate(license.licenseKey, `m${i}`)).status).toBe(200);
  });

  it("takes a maxSeats beyond PostgreSQL's integer range as a limit it never reaches", async () => {
    const license = await withSeats(1e12);
    for (let i = 0; i < 3; i++) expect((await activate(license.licenseKey, `big${i}`)).status).toBe(200);
  });

  it("holds under 50 concurrent activations against 5 seats, 20 times over", async () => {
    for (let round = 0; round < 20; round++) {
      const license = await withSeats(5);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => activate(license.licenseKey, `round${round}-machine${i}`)),
      );
      const statuses = results.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 200),
        `round ${round}`,
      ).toHaveLength(5);
      expect(
        statuses.filter((s) => s === 409),
        `round ${round}`,
      ).toHaveLength(45);
      expect(await activeCount(license.id), `round ${round}`).toBe(5);
      expect(await seatsInUse(license.id), `round ${round}`).toBe(5);
    }
  });

  it("gives one activation to the same machine activating many times at once", async () => {
    const license = await withSeats(3);
    const results = await Promise.all(Array.from({ length: 20 }, () => activate(license.licenseKey, "same")));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.activationId)).size).toBe(1);
    expect(await activeCount(license.id)).toBe(1);
  });

  it("gives the seat back on client deactivate, panel reset, transfer and rebind", async () => {
    const license = await withSeats(1);
    const takeSeat = async (machine: string) => {
      const res = await activate(license.licenseKey, machine);
      expect(res.status, machine).toBe(200);
      expect((await activate(license.licenseKey, `${machine}-extra`)).status, machine).toBe(409);
      return res.body.activationId;
    };

    const first = await takeSeat("first");
    const client = await suite.app.client();
    const body = { licenseKey: license.licenseKey, activationId: first };
    expect((await suite.signed(client, "deactivate", body)).status).toBe(204);
    // Deactivating again is idempotent and must not free a second seat.
    expect((await suite.signed(client, "deactivate", body)).status).toBe(204);
    expect(await seatsInUse(license.id)).toBe(0);

    const second = await takeSeat("second");
    const reset = () =>
      suite.operator.api.activations.reset({ params: { id: license.id, activationId: second } });
    expect((await reset()).status).toBe(204);
    expect((await reset()).status).toBe(204);
    expect(await seatsInUse(license.id)).toBe(0);

    await takeSeat("third");
    const other = await suite.operator.api.companies.create({
      body: { name: "Seat heir", slug: `heir-${Date.now()}` },
    });
    const transfer = await suite.operator.api.licenses.transfer({
      params: { id: license.id },
      body: { newCompanyId: other.body.id },
    });
    expect(transfer.body.deactivatedActivations).toBe(1);

    await takeSeat("fourth");
    const rebind = await suite.operator.api.licenses.rebind({
      params: { id: license.id },
      body: { hwFingerprint: "fifth" },
    });
    expect(rebind.status).toBe(200);
    expect(await seatsInUse(license.id)).toBe(0);
    // The license is now bound to "fifth": that machine takes the freed seat, others are refused by binding.
    expect((await activate(license.licenseKey, "fifth")).status).toBe(200);
    expect(await seatsInUse(license.id)).toBe(1);
    expect(await activeCount(license.id)).toBe(1);
  });

  it("counts a seat only for a new machine, whatever the mix of concurrent activations and deactivations", async () => {
    const license = await withSeats(10);
    const client = await suite.app.client();
    const live = await Promise.all(["a", "b", "c", "d"].map((m) => activate(license.licenseKey, m)));
    await Promise.all([
      ...live.map((res) =>
        suite.signed(client, "deactivate", {
          licenseKey: license.licenseKey,
          activationId: res.body.activationId,
        }),
      ),
      ...["a", "b", "e", "f", "f", "g"].map((m) => activate(license.licenseKey, m)),
    ]);
    expect(await seatsInUse(license.id)).toBe(await activeCount(license.id));
  });
});
