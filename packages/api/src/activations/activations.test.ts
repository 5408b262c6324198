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

const licenseUrl = (id: string) => `/api/v1/panel/licenses/${id}`;

async function licenseWithMachines(count: number, terms: Record<string, unknown> = {}) {
  const license = await issueLicense(operator, target, terms);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    app.clock.advance(1000);
    const res = await (
      await app.client()
    ).post("/api/v1/client/activate", {
      licenseKey: license.licenseKey,
      hwFingerprint: `machine-${i}`,
      machineName: `Machine ${i}`,
    });
    ids.push(res.body.activationId);
  }
  return { license, ids };
}

const deactivatedEvents = async (licenseId: string) =>
  (await app.deps.db.select().from(tables.outboxEvents)).filter(
    (e) => e.eventType === "license.deactivated" && e.data.licenseId === licenseId,
  );

describe("GET /licenses/{id}/activations", () => {
  it("lists the machines of a license", async () => {
    const { license, ids } = await licenseWithMachines(2);
    const res = await operator.get(`${licenseUrl(license.id)}/activations`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body.map((a: { id: string }) => a.id).sort()).toEqual([...ids].sort());
    expect(res.body[0]).toMatchObject({
      status: "active",
      machineName: expect.stringMatching(/^Machine /),
      deactivatedAt: null,
    });
  });

  it("answers 404 for an unknown license and 400 for a malformed id", async () => {
    expect(
      (await operator.get(`${licenseUrl("00000000-0000-4000-8000-000000000000")}/activations`)).status,
    ).toBe(404);
    expect((await operator.get(`${licenseUrl("nope")}/activations`)).status).toBe(400);
  });
});

describe("GET /licenses/{id}/heartbeats", () => {
  it("returns the latest heartbeats, newest first, up to limit (1..1000)", async () => {
    const { license, ids } = await licenseWithMachines(1);
    const client = await app.client();
    for (let i = 0; i < 5; i++) {
      app.clock.advance(60_000);
      const res = await signedPost(client, app.clock.now(), "/api/v1/client/heartbeat", {
        licenseKey: license.licenseKey,
        activationId: ids[0]!,
      });
      expect(res.status).toBe(200);
    }
    const latest = await operator.get(`${licenseUrl(license.id)}/heartbeats?limit=3`);
    expect(latest.body).toHaveLength(3);
    expect(latest.body[0].occurredAt).toBe(app.clock.now().toISOString());
    expect(new Date(latest.body[0].occurredAt) > new Date(latest.body[2].occurredAt)).toBe(true);
    expect((await operator.get(`${licenseUrl(license.id)}/heartbeats`)).body).toHaveLength(5);
    for (const limit of ["0", "1001", "abc"]) {
      const bad = await operator.get(`${licenseUrl(license.id)}/heartbeats?limit=${limit}`);
      expect(bad.status, limit).toBe(400);
      expect(bad.body.message).toMatch(/^query\.limit: /);
    }
  });
});

describe("POST /licenses/{id}/activations/{activationId}/reset", () => {
  it("deactivates the activation and frees its seat; a second reset is still 204 with no second event", async () => {
    const { license, ids } = await licenseWithMachines(1, {
      config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }),
    });
    const url = `${licenseUrl(license.id)}/activations/${ids[0]}/reset`;
    expect((await operator.post(url)).status).toBe(204);
    expect((await operator.post(url)).status).toBe(204);
    expect(await deactivatedEvents(license.id)).toHaveLength(1);
    const list = await operator.get(`${licenseUrl(license.id)}/activations`);
    expect(list.body[0]).toMatchObject({
      status: "deactivated",
      deactivatedAt: app.clock.now().toISOString(),
    });
    const next = await (
      await app.client()
    ).post("/api/v1/client/activate", {
      licenseKey: license.licenseKey,
      hwFingerprint: "replacement",
    });
    expect(next.status).toBe(200);
  });

  it("answers activation.not_found for an activation of another license", async () => {
    const a = await licenseWithMachines(1);
    const b = await licenseWithMachines(1);
    const res = await operator.post(`${licenseUrl(a.license.id)}/activations/${b.ids[0]}/reset`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("activation.not_found");
  });
});

describe("transfer and rebind deactivate real activations", () => {
  it("transfer: every active activation ends, the count is returned, heartbeats then fail", async () => {
    const { license, ids } = await licenseWithMachines(3);
    const other = await operator.post("/api/v1/panel/companies", {
      name: "New owner",
      slug: `new-owner-${Date.now()}`,
    });
    const res = await operator.post(`${licenseUrl(license.id)}/transfer`, { newCompanyId: other.body.id });
    expect(res.status).toBe(200);
    expect(res.body.deactivatedActivations).toBe(3);
    expect((await deactivatedEvents(license.id)).map((e) => e.data.activationId).sort()).toEqual(
      [...ids].sort(),
    );
    const beat = await signedPost(await app.client(), app.clock.now(), "/api/v1/client/heartbeat", {
      licenseKey: license.licenseKey,
      activationId: ids[0]!,
    });
    expect(beat.body.code).toBe("activation.not_found");
  });

  it("rebind: every active activation ends and the new machine can activate", async () => {
    const { license } = await licenseWithMachines(2, { hwBinding: "none" });
    const res = await operator.post(`${licenseUrl(license.id)}/rebind`, { hwFingerprint: "new-machine" });
    expect(res.status).toBe(200);
    const list = await operator.get(`${licenseUrl(license.id)}/activations`);
    expect(list.body.every((a: { status: string }) => a.status === "deactivated")).toBe(true);
    const activate = await (
      await app.client()
    ).post("/api/v1/client/activate", {
      licenseKey: license.licenseKey,
      hwFingerprint: "new-machine",
    });
    expect(activate.status).toBe(200);
  });
});

describe("tRPC activations router", () => {
  it("lists, shows heartbeats and resets through the same core functions", async () => {
    const { license, ids } = await licenseWithMachines(1);
    const list = await operator.get(
      `/trpc/activations.list?input=${encodeURIComponent(JSON.stringify({ json: { id: license.id } }))}`,
    );
    expect(list.body.result.data.json).toHaveLength(1);
    const reset = await operator.post("/trpc/activations.reset", {
      json: { id: license.id, activationId: ids[0] },
    });
    expect(reset.status).toBe(200);
    const after = await operator.get(`${licenseUrl(license.id)}/activations`);
    expect(after.body[0].status).toBe("deactivated");
  });
});
