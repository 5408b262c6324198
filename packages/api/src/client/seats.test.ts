import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
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

const withSeats = (maxSeats: unknown) =>
  issueLicense(operator, target, { config: JSON.stringify({ features: [], limits: { maxSeats } }) });

async function activate(licenseKey: string, hwFingerprint: string) {
  const client = await app.client();
  return client.post("/api/v1/client/activate", { licenseKey, hwFingerprint });
}

async function seatsInUse(licenseId: string) {
  const [row] = await app.deps.db
    .select({ liveSeats: tables.licenses.liveSeats })
    .from(tables.licenses)
    .where(eq(tables.licenses.id, licenseId));
  return row!.liveSeats;
}

async function activeCount(licenseId: string) {
  const rows = await app.deps.db
    .select()
    .from(tables.activations)
    .where(and(eq(tables.activations.licenseId, licenseId), eq(tables.activations.status, "active")));
  return rows.length;
}

describe("seat limit (config.limits.maxSeats)", () => {
  it("caps active activations; a known machine reuses its seat", async () => {
    const license = await withSeats(2);
    expect((await activate(license.licenseKey, "a")).status).toBe(200);
    expect((await activate(license.licenseKey, "b")).status).toBe(200);
    expect((await activate(license.licenseKey, "a")).status).toBe(200);
    const full = await activate(license.licenseKey, "c");
    expect(full.status).toBe(409);
    expect(full.body).toEqual({
      code: "activation.seat_limit_reached",
      message: expect.any(String),
      status: 409,
    });
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
      return res.body.activationId as string;
    };

    const first = await takeSeat("first");
    const client = await app.client();
    const path = "/api/v1/client/deactivate";
    const body = { licenseKey: license.licenseKey, activationId: first };
    expect((await signedPost(client, app.clock.now(), path, body)).status).toBe(204);
    // Deactivating again is idempotent and must not free a second seat.
    expect((await signedPost(client, app.clock.now(), path, body)).status).toBe(204);
    expect(await seatsInUse(license.id)).toBe(0);

    const second = await takeSeat("second");
    const reset = `/api/v1/panel/licenses/${license.id}/activations/${second}/reset`;
    expect((await operator.post(reset)).status).toBe(204);
    expect((await operator.post(reset)).status).toBe(204);
    expect(await seatsInUse(license.id)).toBe(0);

    await takeSeat("third");
    const other = await operator.post("/api/v1/panel/companies", {
      name: "Seat heir",
      slug: `heir-${Date.now()}`,
    });
    const transfer = await operator.post(`/api/v1/panel/licenses/${license.id}/transfer`, {
      newCompanyId: other.body.id,
    });
    expect(transfer.body.deactivatedActivations).toBe(1);

    await takeSeat("fourth");
    const rebind = await operator.post(`/api/v1/panel/licenses/${license.id}/rebind`, {
      hwFingerprint: "fifth",
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
    const client = await app.client();
    const live = await Promise.all(["a", "b", "c", "d"].map((m) => activate(license.licenseKey, m)));
    await Promise.all([
      ...live.map((res) =>
        signedPost(client, app.clock.now(), "/api/v1/client/deactivate", {
          licenseKey: license.licenseKey,
          activationId: res.body.activationId,
        }),
      ),
      ...["a", "b", "e", "f", "f", "g"].map((m) => activate(license.licenseKey, m)),
    ]);
    expect(await seatsInUse(license.id)).toBe(await activeCount(license.id));
  });
});
