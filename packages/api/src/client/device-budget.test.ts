import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY, HOUR } from "@licensing/core";
import type { FingerprintComponent } from "@licensing/contracts";
import { beforeEach, describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";

/** Issue 22 §2: fair device moves. New devices per window are limited; known machines and heals are free. */
const suite = useClientApi();

const hash = (n: number) => n.toString(16).padStart(64, "0");
const machine = (base: number): FingerprintComponent[] =>
  Array.from({ length: 5 }, (_, i) => ({ kind: `kind-${i}`, hash: hash(base + i) }));

type Terms = Parameters<typeof suite.issue>[0];

async function budgeted(terms: Terms = {}) {
  const license = await suite.issue({ maxNewDevicesPerWindow: 3, newDeviceWindowDays: 30, ...terms });
  const client = await suite.app.client();
  const activate = (fp: string, components?: FingerprintComponent[]) =>
    client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: fp, ...(components ? { components } : {}) },
    });
  const deactivate = (activationId: string) =>
    suite.signed(client, "deactivate", { licenseKey: license.licenseKey, activationId });
  // Signed in at the clock's time: a test may have moved it past the session's idle limit.
  const budget = async () => {
    const operator = await suite.app.client({ signIn: true });
    return (await operator.api.licenses.get({ params: { id: license.id } })).body.deviceBudget;
  };
  return { license, client, activate, deactivate, budget };
}

async function exhaustedEvents(licenseId: string) {
  const rows = await suite.app.deps.db
    .select()
    .from(tables.outboxEvents)
    .where(eq(tables.outboxEvents.eventType, "license.device_budget_exhausted"));
  return rows.filter((r) => (r.data as { licenseId: string }).licenseId === licenseId).map((r) => r.data);
}

// These tests move the clock by weeks: past a panel session's idle limit, so each signs in afresh.
beforeEach(async () => {
  suite.operator = await suite.app.client({ signIn: true });
});

const advance = (ms: number) => suite.app.clock.advance(ms);
const now = () => suite.app.clock.now();

describe("the device budget", () => {
  it("refuses the fourth new device of a window with 429, retryAt and Retry-After; publishes once", async () => {
    const { license, activate, budget } = await budgeted();
    const first = now();
    expect((await activate("m1", machine(100))).status).toBe(200);
    advance(2 * DAY);
    expect((await activate("m2", machine(200))).status).toBe(200);
    advance(2 * DAY);
    expect((await activate("m3", machine(300))).status).toBe(200);
    const retryAt = new Date(first.getTime() + 30 * DAY).toISOString();
    expect(await budget()).toEqual({ used: 3, max: 3, windowDays: 30, resetsAt: retryAt });

    advance(HOUR);
    const refused = await activate("m4", machine(400));
    expect(refused.status).toBe(429);
    expect(refused.error).toEqual({
      code: "activation.device_budget_exhausted",
      message: expect.stringContaining(retryAt),
      status: 429,
      retryAt,
    });
    expect(Number(refused.headers.get("Retry-After"))).toBe(
      (new Date(retryAt).getTime() - now().getTime()) / 1000,
    );
    expect(await exhaustedEvents(license.id)).toEqual([{ licenseId: license.id, retryAt }]);

    // Refused again in the same window: no second event, and nothing stored.
    advance(HOUR);
    expect((await activate("m5", machine(500))).status).toBe(429);
    expect(await exhaustedEvents(license.id)).toHaveLength(1);
    const stored = await suite.app.deps.db
      .select()
      .from(tables.activations)
      .where(eq(tables.activations.licenseId, license.id));
    expect(stored).toHaveLength(3);
  });

  it("lets a device in exactly when the oldest counted one leaves the window, not a millisecond before", async () => {
    const { license, activate } = await budgeted({ maxNewDevicesPerWindow: 1, newDeviceWindowDays: 7 });
    const first = now();
    expect((await activate("w1")).status).toBe(200);
    advance(7 * DAY - 1);
    const early = await activate("w2");
    expect(early.status).toBe(429);
    expect(early.error).toMatchObject({ retryAt: new Date(first.getTime() + 7 * DAY).toISOString() });
    expect(Number(early.headers.get("Retry-After"))).toBe(1);
    advance(1);
    expect((await activate("w2")).status).toBe(200);
    // The window is full again: a new refusal, a new window, a new event.
    const second = now();
    advance(DAY);
    const again = await activate("w3");
    expect(again.status).toBe(429);
    const retryAt = new Date(second.getTime() + 7 * DAY).toISOString();
    expect(again.error).toMatchObject({ retryAt });
    expect((await exhaustedEvents(license.id)).map((e) => (e as { retryAt: string }).retryAt)).toEqual([
      new Date(first.getTime() + 7 * DAY).toISOString(),
      retryAt,
    ]);
  });

  it("does not count heals, re-activations of known machines, or deactivations", async () => {
    const { activate, deactivate, budget } = await budgeted({ maxNewDevicesPerWindow: 2 });
    const a = await activate("a", machine(100));
    expect(a.status).toBe(200);
    // A heal: same machine, a new fingerprint, one component changed.
    const drifted = machine(100).map((c, i) => (i === 0 ? { ...c, hash: hash(9999) } : c));
    const healed = await activate("a-moved", drifted);
    expect(healed.body).toMatchObject({ activationId: a.body.activationId, healed: true });
    // Deactivated and activated again, by the same fingerprint: a new activation, not a new device.
    expect((await deactivate(a.body.activationId)).status).toBe(204);
    const back = await activate("a-moved", drifted);
    expect(back.status).toBe(200);
    expect(back.body.activationId).not.toBe(a.body.activationId);
    // Deactivated and back with yet another fingerprint, recognised by its components.
    await deactivate(back.body.activationId);
    advance(DAY);
    const reinstalled = await activate("a-reinstalled", drifted);
    expect(reinstalled.status).toBe(200);
    expect(await budget()).toMatchObject({ used: 1, max: 2 });
    // A truly new machine still fits; the next is refused.
    expect((await activate("b", machine(200))).status).toBe(200);
    expect((await activate("c", machine(300))).status).toBe(429);
  });

  it("counts a machine again once it has not been live on the license for 90 days", async () => {
    const { activate, deactivate, budget } = await budgeted({
      maxNewDevicesPerWindow: 5,
      newDeviceWindowDays: 1,
    });
    const a = await activate("old", machine(100));
    await deactivate(a.body.activationId);
    advance(90 * DAY);
    // Deactivated exactly 90 days ago: still known.
    const known = await activate("old", machine(100));
    expect(known.status).toBe(200);
    expect(await budget()).toMatchObject({ used: 0 });
    await deactivate(known.body.activationId);
    advance(90 * DAY + 1);
    expect((await activate("old", machine(100))).status).toBe(200);
    expect(await budget()).toMatchObject({ used: 1 });
  });

  it("comes before the seat limit: a new device over both is told when to retry", async () => {
    const { activate } = await budgeted({
      maxNewDevicesPerWindow: 1,
      config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }),
    });
    expect((await activate("s1")).status).toBe(200);
    expect((await activate("s2")).error.code).toBe("activation.device_budget_exhausted");
  });

  it("is reset from the panel: devices counted so far stop counting, audited, and the next refusal publishes", async () => {
    const { license, activate, budget } = await budgeted({ maxNewDevicesPerWindow: 1 });
    expect((await activate("r1")).status).toBe(200);
    expect((await activate("r2")).status).toBe(429);
    expect(await exhaustedEvents(license.id)).toHaveLength(1);

    const reset = await suite.operator.api.activations.resetDeviceBudget({ params: { id: license.id } });
    expect(reset.status).toBe(204);
    expect(await budget()).toEqual({ used: 0, max: 1, windowDays: 30, resetsAt: null });
    const [row] = await suite.app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.action, "license.device_budget_reset"))
      .then((rows) => rows.filter((r) => r.entityId === license.id));
    expect(row).toMatchObject({ actorEmail: expect.any(String), meta: { cleared: 1 } });

    advance(1);
    expect((await activate("r2")).status).toBe(200);
    expect((await budget()).used).toBe(1);
    const again = await activate("r3");
    expect(again.status).toBe(429);
    expect(await exhaustedEvents(license.id)).toHaveLength(2);
  });

  it("answers license.not_found for a reset of a license the caller cannot see", async () => {
    const res = await suite.operator.api.activations.resetDeviceBudget({
      params: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect([res.status, res.error.code]).toEqual([404, "license.not_found"]);
  });

  it("counts new devices of an unlimited license too (max null), without refusing any", async () => {
    const { activate, deactivate, budget } = await budgeted({ maxNewDevicesPerWindow: null });
    const first = now();
    for (const m of ["u1", "u2", "u3", "u4"]) expect((await activate(m)).status).toBe(200);
    const u1 = await activate("u1");
    await deactivate(u1.body.activationId);
    expect((await activate("u1")).status).toBe(200);
    expect(await budget()).toEqual({
      used: 4,
      max: null,
      windowDays: 30,
      resetsAt: new Date(first.getTime() + 30 * DAY).toISOString(),
    });
  });
});

describe("device terms on templates and licenses", () => {
  it("templates default to fuzzy and no limit in 30 days, and take the fields on create and update", async () => {
    const created = await suite.operator.api.templates.create({
      body: {
        name: "Terms",
        productCode: `TERMS-${process.pid}`,
        defaultOfflineDays: 7,
        defaultValidityDays: 30,
      },
    });
    expect(created.body).toMatchObject({
      fingerprintMatch: "fuzzy",
      maxNewDevicesPerWindow: null,
      newDeviceWindowDays: 30,
    });
    const updated = await suite.operator.api.templates.update({
      params: { id: created.body.id },
      body: { fingerprintMatch: "loose", maxNewDevicesPerWindow: 4, newDeviceWindowDays: 14 },
    });
    expect(updated.body).toMatchObject({
      fingerprintMatch: "loose",
      maxNewDevicesPerWindow: 4,
      newDeviceWindowDays: 14,
    });
    const cleared = await suite.operator.api.templates.update({
      params: { id: created.body.id },
      body: { maxNewDevicesPerWindow: null },
    });
    expect(cleared.body).toMatchObject({
      fingerprintMatch: "loose",
      maxNewDevicesPerWindow: null,
      newDeviceWindowDays: 14,
    });
  });

  it.each([
    ["fingerprintMatch", "approximate"],
    ["maxNewDevicesPerWindow", 0],
    ["maxNewDevicesPerWindow", 1.5],
    ["newDeviceWindowDays", 0],
    ["newDeviceWindowDays", 366],
  ])("refuses a template with %s %j", async (field, value) => {
    const res = await suite.operator.api.templates.create({
      body: {
        name: "Bad",
        productCode: `BAD-${process.pid}-${field}-${String(value)}`.replace(/[^A-Za-z0-9._-]/g, "_"),
        defaultOfflineDays: 7,
        defaultValidityDays: 30,
        [field]: value,
      } as never,
    });
    expect(res.status).toBe(400);
    expect(res.error.message).toContain(`body.${field}`);
  });

  it("a license takes the template's terms unless the issue request overrides them (null: no limit)", async () => {
    const template = await suite.operator.api.templates.create({
      body: {
        name: "Budgeted",
        productCode: `BUDGET-${process.pid}`,
        defaultOfflineDays: 7,
        defaultValidityDays: 30,
        fingerprintMatch: "strict",
        maxNewDevicesPerWindow: 2,
        newDeviceWindowDays: 10,
      },
    });
    const templateId = template.body.id;
    const inherited = await suite.issue({ templateId });
    const overridden = await suite.issue({
      templateId,
      fingerprintMatch: "exact",
      maxNewDevicesPerWindow: null,
      newDeviceWindowDays: 90,
    });
    const view = async (id: string) => (await suite.operator.api.licenses.get({ params: { id } })).body;
    expect(await view(inherited.id)).toMatchObject({
      fingerprintMatch: "strict",
      deviceBudget: { used: 0, max: 2, windowDays: 10, resetsAt: null },
    });
    expect(await view(overridden.id)).toMatchObject({
      fingerprintMatch: "exact",
      deviceBudget: { used: 0, max: null, windowDays: 90, resetsAt: null },
    });
    // A later template edit leaves issued licenses as they were.
    await suite.operator.api.templates.update({
      params: { id: templateId },
      body: { fingerprintMatch: "loose" },
    });
    expect((await view(inherited.id)).fingerprintMatch).toBe("strict");
    // The search shows the same.
    const page = await suite.operator.api.licenses.search({ query: { templateId } });
    expect(page.body.items.map((l) => l.deviceBudget.max).sort()).toEqual([2, null]);
  });

  it("puts fm in the token", async () => {
    const license = await suite.issue({ fingerprintMatch: "loose" });
    const payload = JSON.parse(Buffer.from(license.token.split(".")[1]!, "base64url").toString()) as Record<
      string,
      unknown
    >;
    expect(payload.fm).toBe("loose");
    const plain = await suite.issue();
    expect(
      (JSON.parse(Buffer.from(plain.token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>)
        .fm,
    ).toBe("fuzzy");
  });
});
