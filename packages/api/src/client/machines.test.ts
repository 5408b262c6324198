import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { MINUTE } from "@licensing/core";
import { describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";

/** Issue 22 §1 and §3: fingerprint components are accepted and stored; the machines a program may free. */
const suite = useClientApi();

const hash = (n: number) => n.toString(16).padStart(64, "0");
const components = (...hashes: number[]) =>
  hashes.map((n, i) => ({
    kind: ["machine-id", "cpu", "memory", "disk", "mac"][i] ?? `kind-${i}`,
    hash: hash(n),
  }));

async function storedActivations(licenseId: string) {
  return suite.app.deps.db
    .select()
    .from(tables.activations)
    .where(eq(tables.activations.licenseId, licenseId));
}

describe("components on POST /client/activate", () => {
  it("are stored with the activation, and the panel shows their kinds only", async () => {
    const sent = components(1, 2, 3);
    const { license, activationId } = await suite.activated({}, { hwFingerprint: "fp-c", components: sent });
    const [row] = await storedActivations(license.id);
    expect(row).toMatchObject({ id: activationId, components: sent, newDevice: true });
    const panel = await suite.operator.api.activations.list({ params: { id: license.id } });
    expect(panel.body[0]).toMatchObject({
      componentKinds: ["machine-id", "cpu", "memory"],
      newDevice: true,
      heals: [],
    });
    expect(panel.text).not.toContain(hash(1));
  });

  it("are optional: without them an activation stores none", async () => {
    const { license } = await suite.activated({}, { hwFingerprint: "fp-none" });
    const [row] = await storedActivations(license.id);
    expect(row!.components).toBeNull();
    const panel = await suite.operator.api.activations.list({ params: { id: license.id } });
    expect(panel.body[0]!.componentKinds).toEqual([]);
  });

  it("of a known machine replace the stored ones, so the next drift is measured from the latest", async () => {
    const { license, activationId, client } = await suite.activated({}, { hwFingerprint: "fp-r" });
    const now = components(4, 5, 6);
    const again = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "fp-r", components: now },
    });
    expect(again.body).toMatchObject({ activationId, healed: false });
    const [row] = await storedActivations(license.id);
    expect(row!.components).toEqual(now);
  });

  const tooMany = Array.from({ length: 17 }, (_, i) => ({ kind: `k${i}`, hash: hash(i) }));
  it.each([
    ["more than 16", tooMany, "body.components"],
    [
      "a duplicate kind",
      [...components(1, 2), { kind: "machine-id", hash: hash(9) }],
      "body.components.2.kind",
    ],
    ["a kind with capitals", [{ kind: "Disk", hash: hash(1) }], "body.components.0.kind"],
    ["an empty kind", [{ kind: "", hash: hash(1) }], "body.components.0.kind"],
    ["a kind of 33 characters", [{ kind: "a".repeat(33), hash: hash(1) }], "body.components.0.kind"],
    ["a hash in capitals", [{ kind: "disk", hash: hash(171).toUpperCase() }], "body.components.0.hash"],
    ["a short hash", [{ kind: "disk", hash: "ab12" }], "body.components.0.hash"],
    ["a hash of 65 characters", [{ kind: "disk", hash: `${hash(1)}0` }], "body.components.0.hash"],
    ["a hash that is not hex", [{ kind: "disk", hash: "g".repeat(64) }], "body.components.0.hash"],
    ["a component without a hash", [{ kind: "disk" }], "body.components.0.hash"],
    ["not an array", { disk: hash(1) }, "body.components"],
  ])("refuses %s with request.invalid naming the field, and stores nothing", async (_case, bad, field) => {
    const license = await suite.issue();
    const client = await suite.app.client();
    const res = await client.post("/api/v1/client/activate", {
      licenseKey: license.licenseKey,
      hwFingerprint: "fp-bad",
      components: bad,
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "request.invalid", status: 400 });
    expect((res.json as { message: string }).message).toContain(`${field}:`);
    expect(await storedActivations(license.id)).toEqual([]);
  });

  it("accepts exactly 16, kinds of 32 characters and digits and hyphens", async () => {
    const sixteen = Array.from({ length: 16 }, (_, i) => ({
      kind: `${"k".repeat(29)}-${i % 10}${i}`.slice(-32),
      hash: hash(i),
    }));
    const res = await (
      await suite.app.client()
    ).api.client.activate({
      body: { licenseKey: (await suite.issue()).licenseKey, hwFingerprint: "fp-16", components: sixteen },
    });
    expect(res.status, res.text).toBe(200);
  });
});

describe("POST /client/machines", () => {
  it("lists the live activations, oldest first, without fingerprints or components", async () => {
    const { license, activationId, client } = await suite.activated(
      {},
      { hwFingerprint: "fp-m1", machineName: "Desk", components: components(1, 2, 3) },
    );
    suite.app.clock.advance(MINUTE);
    const second = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "fp-m2", components: components(7, 8, 9) },
    });
    const third = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "fp-m3" },
    });
    await suite.signed(client, "deactivate", {
      licenseKey: license.licenseKey,
      activationId: third.body.activationId,
    });
    suite.app.clock.advance(MINUTE);
    await suite.signed(client, "heartbeat", { licenseKey: license.licenseKey, activationId });

    const res = await suite.signed(client, "machines", { licenseKey: license.licenseKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      machines: [
        {
          activationId,
          machineName: "Desk",
          activatedAt: expect.any(String),
          lastHeartbeatAt: suite.app.clock.now().toISOString(),
        },
        {
          activationId: second.body.activationId,
          machineName: null,
          activatedAt: expect.any(String),
          lastHeartbeatAt: null,
        },
      ],
    });
    expect(res.text).not.toMatch(/fp-m|hwFingerprint|components|0{40}/);
  });

  it("frees another machine's seat with deactivate (remote deactivation); the list follows", async () => {
    const license = await suite.issue({ config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }) });
    const client = await suite.app.client();
    const first = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "one" },
    });
    const refused = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "two" },
    });
    expect(refused.status).toBe(409);
    const [holder] = (refused.error as { machines: Array<{ activationId: string }> }).machines;
    expect(holder!.activationId).toBe(first.body.activationId);
    const freed = await suite.signed(client, "deactivate", {
      licenseKey: license.licenseKey,
      activationId: holder!.activationId,
    });
    expect(freed.status).toBe(204);
    expect((await suite.signed(client, "machines", { licenseKey: license.licenseKey })).body).toEqual({
      machines: [],
    });
    const now = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "two" },
    });
    expect(now.status).toBe(200);
  });

  it("answers for a license that is not live (its machines can still be freed)", async () => {
    const { license, activationId, client } = await suite.activated();
    await suite.operator.api.licenses.suspend({ params: { id: license.id } });
    const res = await suite.signed(client, "machines", { licenseKey: license.licenseKey });
    expect(res.body.machines.map((m) => m.activationId)).toEqual([activationId]);
  });

  it("needs the signature: none, a stale one, another key, or one over another body are refused", async () => {
    const { license, client } = await suite.activated();
    const body = { licenseKey: license.licenseKey };
    const unsigned = await client.post("/api/v1/client/machines", body);
    expect([unsigned.status, (unsigned.json as { code: string }).code]).toEqual([401, "hmac.missing"]);
    const stale = await suite.signed(client, "machines", body, { skewSeconds: -301 });
    expect([stale.status, stale.error.code]).toEqual([401, "hmac.stale"]);
    const otherKey = await suite.signed(client, "machines", body, { key: "SVC-OTHER" });
    expect([otherKey.status, otherKey.error.code]).toEqual([401, "hmac.mismatch"]);
    const replayed = await suite.signed(
      client,
      "machines",
      { licenseKey: "SVC-AAAAA" },
      { sendBody: body, key: license.licenseKey },
    );
    expect([replayed.status, replayed.error.code]).toEqual([401, "hmac.mismatch"]);
  });

  it("answers license.not_found for an unknown key signed with itself", async () => {
    const client = await suite.app.client();
    const res = await suite.signed(client, "machines", { licenseKey: "SVC-00000-00000-00000-00000-00000" });
    expect([res.status, res.error.code]).toEqual([404, "license.not_found"]);
  });
});
