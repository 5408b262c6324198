import { tables } from "@licensing/db";
import { describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";

const suite = useClientApi();

const licenseUrl = (id: string) => `/api/v1/panel/licenses/${id}`;
const activationsOf = (id: string) => suite.operator.api.activations.list({ params: { id } });
const activate = async (body: { licenseKey: string; hwFingerprint: string; machineName?: string }) =>
  (await suite.app.client()).api.client.activate({ body });

async function licenseWithMachines(count: number, terms: Parameters<typeof suite.issue>[0] = {}) {
  const license = await suite.issue(terms);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    suite.app.clock.advance(1000);
    const res = await activate({
      licenseKey: license.licenseKey,
      hwFingerprint: `machine-${i}`,
      machineName: `Machine ${i}`,
    });
    ids.push(res.body.activationId);
  }
  return { license, ids };
}

const deactivatedEvents = async (licenseId: string) =>
  (await suite.app.deps.db.select().from(tables.outboxEvents)).filter(
    (e) => e.eventType === "license.deactivated" && e.data.licenseId === licenseId,
  );

describe("GET /licenses/{id}/activations", () => {
  it("lists the machines of a license", async () => {
    const { license, ids } = await licenseWithMachines(2);
    const res = await activationsOf(license.id);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body.map((a) => a.id).sort()).toEqual([...ids].sort());
    expect(res.body[0]).toMatchObject({
      status: "active",
      machineName: expect.stringMatching(/^Machine /),
      deactivatedAt: null,
    });
  });

  it("answers 404 for an unknown license and 400 for a malformed id", async () => {
    expect((await activationsOf("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    // A path the schema refuses, sent as it is.
    expect((await suite.operator.get(`${licenseUrl("nope")}/activations`)).status).toBe(400);
  });
});

describe("GET /licenses/{id}/heartbeats", () => {
  it("returns the latest heartbeats, newest first, up to limit (1..1000)", async () => {
    const { license, ids } = await licenseWithMachines(1);
    const client = await suite.app.client();
    for (let i = 0; i < 5; i++) {
      suite.app.clock.advance(60_000);
      const res = await suite.signed(client, "heartbeat", {
        licenseKey: license.licenseKey,
        activationId: ids[0]!,
      });
      expect(res.status).toBe(200);
    }
    const heartbeats = suite.operator.api.activations.heartbeats;
    const latest = await heartbeats({ params: { id: license.id }, query: { limit: 3 } });
    expect(latest.body).toHaveLength(3);
    expect(latest.body[0]!.occurredAt).toBe(suite.app.clock.now().toISOString());
    expect(new Date(latest.body[0]!.occurredAt) > new Date(latest.body[2]!.occurredAt)).toBe(true);
    expect((await heartbeats({ params: { id: license.id } })).body).toHaveLength(5);
    for (const limit of ["0", "1001", "abc"]) {
      // A query the schema refuses, sent as it is.
      const bad = await suite.operator.get(`${licenseUrl(license.id)}/heartbeats?limit=${limit}`);
      expect(bad.status, limit).toBe(400);
      expect(bad.error.message).toMatch(/^query\.limit: /);
    }
  });
});

describe("POST /licenses/{id}/activations/{activationId}/reset", () => {
  it("deactivates the activation and frees its seat; a second reset is still 204 with no second event", async () => {
    const { license, ids } = await licenseWithMachines(1, {
      config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }),
    });
    const reset = () =>
      suite.operator.api.activations.reset({ params: { id: license.id, activationId: ids[0]! } });
    expect((await reset()).status).toBe(204);
    expect((await reset()).status).toBe(204);
    expect(await deactivatedEvents(license.id)).toHaveLength(1);
    const list = await activationsOf(license.id);
    expect(list.body[0]).toMatchObject({
      status: "deactivated",
      deactivatedAt: suite.app.clock.now().toISOString(),
    });
    const next = await activate({ licenseKey: license.licenseKey, hwFingerprint: "replacement" });
    expect(next.status).toBe(200);
  });

  it("answers activation.not_found for an activation of another license", async () => {
    const a = await licenseWithMachines(1);
    const b = await licenseWithMachines(1);
    const res = await suite.operator.api.activations.reset({
      params: { id: a.license.id, activationId: b.ids[0]! },
    });
    expect(res.status).toBe(404);
    expect(res.error.code).toBe("activation.not_found");
  });
});

describe("transfer and rebind deactivate real activations", () => {
  it("transfer: every active activation ends, the count is returned, heartbeats then fail", async () => {
    const { license, ids } = await licenseWithMachines(3);
    const other = await suite.operator.api.companies.create({
      body: { name: "New owner", slug: `new-owner-${Date.now()}` },
    });
    const res = await suite.operator.api.licenses.transfer({
      params: { id: license.id },
      body: { newCompanyId: other.body.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.deactivatedActivations).toBe(3);
    expect((await deactivatedEvents(license.id)).map((e) => e.data.activationId).sort()).toEqual(
      [...ids].sort(),
    );
    const beat = await suite.signed(await suite.app.client(), "heartbeat", {
      licenseKey: license.licenseKey,
      activationId: ids[0]!,
    });
    expect(beat.error.code).toBe("activation.not_found");
  });

  it("rebind: every active activation ends and the new machine can activate", async () => {
    const { license } = await licenseWithMachines(2, { hwBinding: "none" });
    const res = await suite.operator.api.licenses.rebind({
      params: { id: license.id },
      body: { hwFingerprint: "new-machine" },
    });
    expect(res.status).toBe(200);
    const list = await activationsOf(license.id);
    expect(list.body.every((a) => a.status === "deactivated")).toBe(true);
    const activated = await activate({ licenseKey: license.licenseKey, hwFingerprint: "new-machine" });
    expect(activated.status).toBe(200);
  });
});

describe("tRPC activations router", () => {
  it("lists, shows heartbeats and resets through the same core functions", async () => {
    const { license, ids } = await licenseWithMachines(1);
    const { activations } = suite.operator.trpc;
    const list = await activations.list.query({ id: license.id });
    expect(list).toHaveLength(1);
    await expect(
      activations.reset.mutate({ id: license.id, activationId: ids[0]! }),
    ).resolves.toBeUndefined();
    const after = await activationsOf(license.id);
    expect(after.body[0]!.status).toBe("deactivated");
  });
});
