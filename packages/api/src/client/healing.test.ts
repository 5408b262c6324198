import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { verifyMarker } from "@licensing/core";
import type { FingerprintComponent } from "@licensing/contracts";
import { describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";
import type { TestClient } from "../testing/index.ts";

/** Issue 22 §1: a machine whose fingerprint drifted is recognised by its components and healed. */
const suite = useClientApi();

const hash = (n: number) => n.toString(16).padStart(64, "0");
/** `n` components, kinds `kind-0 …`, hashes from `base`. */
const machine = (n: number, base = 0): FingerprintComponent[] =>
  Array.from({ length: n }, (_, i) => ({ kind: `kind-${i}`, hash: hash(base + i) }));
/** The same components with the first `changed` given new hashes. */
const drift = (components: FingerprintComponent[], changed: number) =>
  components.map((c, i) => (i < changed ? { ...c, hash: hash(5000 + i) } : c));

type Terms = Parameters<typeof suite.issue>[0];

async function start(terms: Terms = {}, fp = "fp-old", components = machine(5)) {
  const { license, activationId, client } = await suite.activated(terms, { hwFingerprint: fp, components });
  return { license, activationId, client, components };
}

const activate = (
  client: TestClient,
  licenseKey: string,
  hwFingerprint: string | undefined,
  components?: FingerprintComponent[],
) =>
  client.api.client.activate({
    body: { licenseKey, ...(hwFingerprint ? { hwFingerprint } : {}), ...(components ? { components } : {}) },
  });

async function live(licenseId: string) {
  return suite.app.deps.db
    .select()
    .from(tables.activations)
    .where(and(eq(tables.activations.licenseId, licenseId), eq(tables.activations.status, "active")));
}
async function seats(licenseId: string) {
  const [row] = await suite.app.deps.db
    .select({ liveSeats: tables.licenses.liveSeats, hwFingerprint: tables.licenses.hwFingerprint })
    .from(tables.licenses)
    .where(eq(tables.licenses.id, licenseId));
  return row!;
}
async function events(type: string, licenseId: string) {
  const rows = await suite.app.deps.db
    .select()
    .from(tables.outboxEvents)
    .where(eq(tables.outboxEvents.eventType, type));
  return rows.filter((r) => (r.data as { licenseId: string }).licenseId === licenseId).map((r) => r.data);
}
async function audit(entityId: string) {
  return suite.app.deps.db.select().from(tables.auditLog).where(eq(tables.auditLog.entityId, entityId));
}

describe("healing under the default fingerprintMatch (fuzzy)", () => {
  it("at exactly 0.6 returns the same activation, healed, with the new fingerprint stored and no seat taken", async () => {
    const { license, activationId, client, components } = await start();
    const now = drift(components, 2); // 3 of 5: exactly 0.6
    const res = await activate(client, license.licenseKey, "fp-new", now);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ activationId, healed: true });
    const marker = verifyMarker(res.body.heartbeatToken, license.publicKey, { now: suite.app.clock.now() });
    expect(marker.valid && marker.payload.fp).toBe("fp-new");

    const rows = await live(license.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: activationId, hwFingerprint: "fp-new", components: now });
    expect((await seats(license.id)).liveSeats).toBe(1);
    expect(await events("license.activation_healed", license.id)).toEqual([
      { licenseId: license.id, activationId, score: 0.6 },
    ]);
    const healed = (await audit(activationId)).find((r) => r.action === "activation.healed");
    expect(healed).toMatchObject({
      entityType: "activation",
      meta: {
        licenseId: license.id,
        oldFingerprint: "fp-old",
        newFingerprint: "fp-new",
        score: 0.6,
        changedKinds: ["kind-0", "kind-1"],
      },
    });
    // The heartbeat goes on with the same activation; the panel shows the heal.
    const beat = await suite.signed(client, "heartbeat", { licenseKey: license.licenseKey, activationId });
    expect(beat.status).toBe(200);
    const panel = await suite.operator.api.activations.list({ params: { id: license.id } });
    expect(panel.body[0]!.heals).toEqual([
      { healedAt: suite.app.clock.now().toISOString(), score: 0.6, changedKinds: ["kind-0", "kind-1"] },
    ]);
    // The healed machine is now known by its new fingerprint: the same request again is a plain reuse.
    const again = await activate(client, license.licenseKey, "fp-new", now);
    expect(again.body).toMatchObject({ activationId, healed: false });
    expect(await events("license.activation_healed", license.id)).toHaveLength(1);
  });

  it("just below 0.6 is a new machine: a new activation and a seat", async () => {
    const { license, activationId, client } = await start({}, "fp-old", machine(16));
    const res = await activate(client, license.licenseKey, "fp-new", drift(machine(16), 7)); // 9/16
    expect(res.status).toBe(200);
    expect(res.body.healed).toBe(false);
    expect(res.body.activationId).not.toBe(activationId);
    expect((await seats(license.id)).liveSeats).toBe(2);
    expect(await events("license.activation_healed", license.id)).toEqual([]);
  });

  it("the same fingerprint returns its activation unhealed, whatever the components", async () => {
    const { license, activationId, client } = await start();
    const res = await activate(client, license.licenseKey, "fp-old", machine(5, 900));
    expect(res.body).toMatchObject({ activationId, healed: false });
    expect(await events("license.activation_healed", license.id)).toEqual([]);
  });

  it("two candidates at the threshold heal nothing; the new activation's audit row says why", async () => {
    const license = await suite.issue();
    const client = await suite.app.client();
    // a and b share two of five components (not enough to be one machine); c matches a on three
    // (0.6) and b on four (0.8): either could be it, so neither is healed.
    const of = (...hashes: number[]) => hashes.map((n, i) => ({ kind: `kind-${i}`, hash: hash(n) }));
    const a = await activate(client, license.licenseKey, "fp-a", of(1, 2, 3, 4, 5));
    const b = await activate(client, license.licenseKey, "fp-b", of(1, 2, 6, 7, 8));
    expect(b.body.healed).toBe(false);
    const res = await activate(client, license.licenseKey, "fp-c", of(1, 2, 3, 7, 8));
    expect(res.status).toBe(200);
    expect(res.body.healed).toBe(false);
    expect([a.body.activationId, b.body.activationId]).not.toContain(res.body.activationId);
    expect(await live(license.id)).toHaveLength(3);
    const [row] = await audit(res.body.activationId);
    expect(row!.meta).toMatchObject({
      healSkipped: expect.stringMatching(/several/),
      healCandidates: expect.arrayContaining([a.body.activationId, b.body.activationId]),
    });
    expect(await events("license.activation_healed", license.id)).toEqual([]);
  });

  it("a deactivated activation is not healed: the machine takes a new activation", async () => {
    const { license, activationId, client, components } = await start();
    await suite.signed(client, "deactivate", { licenseKey: license.licenseKey, activationId });
    const res = await activate(client, license.licenseKey, "fp-new", drift(components, 1));
    expect(res.body.healed).toBe(false);
    expect(res.body.activationId).not.toBe(activationId);
  });

  it("a request without a fingerprint heals nothing", async () => {
    const { license, activationId, client, components } = await start();
    const res = await activate(client, license.licenseKey, undefined, components);
    expect(res.body.activationId).not.toBe(activationId);
    expect(res.body.healed).toBe(false);
  });

  it("a heal takes no seat: it succeeds on a license whose every seat is in use", async () => {
    const { license, activationId, client, components } = await start({
      config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }),
    });
    expect((await activate(client, license.licenseKey, "fp-other", machine(5, 700))).status).toBe(409);
    const res = await activate(client, license.licenseKey, "fp-new", drift(components, 1));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ activationId, healed: true });
    expect((await seats(license.id)).liveSeats).toBe(1);
  });
});

describe("the threshold of each fingerprintMatch", () => {
  // [mode, stored, changed, heals]
  it.each([
    ["strict", 5, 1, true], // 0.8
    ["strict", 16, 4, false], // 0.75
    ["loose", 5, 3, true], // 0.4
    ["loose", 16, 10, false], // 0.375
    ["exact", 5, 0, false], // the fingerprint alone decides
    ["exact", 5, 1, false],
  ] as const)("%s, %i stored, %i changed → heals: %s", async (fingerprintMatch, stored, changed, heals) => {
    const { license, activationId, client } = await start({ fingerprintMatch }, "fp-old", machine(stored));
    const res = await activate(client, license.licenseKey, "fp-new", drift(machine(stored), changed));
    expect(res.status).toBe(200);
    expect(res.body.healed).toBe(heals);
    expect(res.body.activationId === activationId).toBe(heals);
    expect((await seats(license.id)).liveSeats).toBe(heals ? 1 : 2);
  });

  it("takes the template's when the license does not override it", async () => {
    const template = await suite.operator.api.templates.create({
      body: {
        name: "Strict product",
        productCode: `STRICT-${process.pid}`,
        defaultOfflineDays: 7,
        defaultValidityDays: 365,
        fingerprintMatch: "strict",
      },
    });
    const license = await suite.issue({ templateId: template.body.id });
    const view = await suite.operator.api.licenses.get({ params: { id: license.id } });
    expect(view.body.fingerprintMatch).toBe("strict");
    const client = await suite.app.client();
    await activate(client, license.licenseKey, "fp-old", machine(5));
    const res = await activate(client, license.licenseKey, "fp-new", drift(machine(5), 2)); // 0.6 < 0.8
    expect(res.body.healed).toBe(false);
  });
});

describe("a binding follows the healed machine", () => {
  it("fixed: the license is bound to the new fingerprint, and the old one is refused", async () => {
    const { license, activationId, client, components } = await start({ hwFingerprint: "fp-old" });
    const res = await activate(client, license.licenseKey, "fp-new", drift(components, 1));
    expect(res.body).toMatchObject({ activationId, healed: true });
    expect((await seats(license.id)).hwFingerprint).toBe("fp-new");
    const view = await suite.operator.api.licenses.get({ params: { id: license.id } });
    expect(view.body).toMatchObject({ hwBinding: "fixed", hwFingerprint: "fp-new" });
    const old = await activate(client, license.licenseKey, "fp-old");
    expect([old.status, old.error.code]).toEqual([400, "activation.fingerprint_mismatch"]);
    const [healed] = (await audit(activationId)).filter((r) => r.action === "activation.healed");
    expect(healed!.meta).toMatchObject({ bindingFollowed: true });
  });

  it("firstActivation: the pin moves with the machine", async () => {
    const { license, activationId, client, components } = await start({ hwBinding: "firstActivation" });
    const res = await activate(client, license.licenseKey, "fp-new", drift(components, 2));
    expect(res.body).toMatchObject({ activationId, healed: true });
    expect((await seats(license.id)).hwFingerprint).toBe("fp-new");
  });

  it("a fixed license refuses another machine whose components do not match", async () => {
    const { license, client } = await start({ hwFingerprint: "fp-old" });
    const res = await activate(client, license.licenseKey, "fp-other", machine(5, 400));
    expect([res.status, res.error.code]).toEqual([400, "activation.fingerprint_mismatch"]);
  });
});

describe("a heal racing activations", () => {
  it("never gives a healed machine two live activations, and never takes a seat for a heal", async () => {
    for (let round = 0; round < 10; round++) {
      const { license, activationId, client, components } = await start({
        config: JSON.stringify({ features: [], limits: { maxSeats: 3 } }),
      });
      const drifted = drift(components, 1);
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => activate(client, license.licenseKey, "fp-moved", drifted)),
        ...["b", "c", "d"].map((m, i) =>
          activate(client, license.licenseKey, `fp-${m}`, machine(5, 1000 * (i + 1))),
        ),
      ]);
      const heals = results.slice(0, 5);
      const others = results.slice(5);
      expect(
        heals.map((r) => [r.status, r.body.activationId]),
        `round ${round}`,
      ).toEqual(Array.from({ length: 5 }, () => [200, activationId]));
      expect(
        heals.filter((r) => r.body.healed),
        `round ${round}`,
      ).toHaveLength(1);
      expect(others.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 200, 409]);
      const rows = await live(license.id);
      expect(
        rows.filter((r) => r.hwFingerprint === "fp-moved" || r.id === activationId),
        `round ${round}`,
      ).toEqual([expect.objectContaining({ id: activationId, hwFingerprint: "fp-moved" })]);
      expect(rows, `round ${round}`).toHaveLength(3);
      expect((await seats(license.id)).liveSeats, `round ${round}`).toBe(3);
      expect(await events("license.activation_healed", license.id), `round ${round}`).toHaveLength(1);
    }
  });

  it("a heal and a plain re-activation of the new fingerprint at once still leave one live activation", async () => {
    for (let round = 0; round < 10; round++) {
      const { license, activationId, client, components } = await start();
      const results = await Promise.all([
        activate(client, license.licenseKey, "fp-moved", drift(components, 1)),
        activate(client, license.licenseKey, "fp-moved", drift(components, 1)),
        activate(client, license.licenseKey, "fp-moved", drift(components, 1)),
      ]);
      expect(new Set(results.map((r) => r.body.activationId)), `round ${round}`).toEqual(
        new Set([activationId]),
      );
      expect(await live(license.id), `round ${round}`).toHaveLength(1);
      expect((await seats(license.id)).liveSeats, `round ${round}`).toBe(1);
    }
  });
});
