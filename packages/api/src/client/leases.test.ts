import { and, eq } from "drizzle-orm";
import { DAY, HOUR, MINUTE, verifyLeaseToken } from "@licensing/core";
import { tables } from "@licensing/db";
import { describe, expect, it } from "vitest";
import type { IssuedLicense } from "../testing/client-api.ts";
import { useClientApi } from "../testing/client-fixture.ts";
import type { TestClient } from "../testing/http-client.ts";

/** Issue 23 §1–2: leases of floating licenses, through the client API. */
const suite = useClientApi();

type Limits = { maxSeats?: unknown; maxMachines?: unknown };
const floating = (limits: Limits = { maxSeats: 2 }, terms: Parameters<typeof suite.issue>[0] = {}) =>
  suite.issue({ seatModel: "floating", config: JSON.stringify({ features: [], limits }), ...terms });

/** A license's machine: activated from its own client, as the SDK does. */
interface Machine {
  license: IssuedLicense;
  activationId: string;
  client: TestClient;
}
async function machine(license: IssuedLicense, name: string): Promise<Machine> {
  const client = await suite.app.client();
  const res = await client.api.client.activate({
    body: { licenseKey: license.licenseKey, hwFingerprint: `fp-${name}`, machineName: name },
  });
  expect(res.status, res.text).toBe(200);
  return { license, activationId: res.body.activationId, client };
}

const acquire = (m: Machine) =>
  suite.signed(m.client, "acquireLease", { licenseKey: m.license.licenseKey, activationId: m.activationId });
const renew = (m: Machine, leaseId: string) =>
  suite.signed(m.client, "renewLease", { licenseKey: m.license.licenseKey, leaseId });
const release = (m: Machine, leaseId: string) =>
  suite.signed(m.client, "releaseLease", { licenseKey: m.license.licenseKey, leaseId });
const borrow = (m: Machine, leaseId: string, until: Date | string) =>
  suite.signed(m.client, "borrowLease", {
    licenseKey: m.license.licenseKey,
    leaseId,
    until: typeof until === "string" ? until : until.toISOString(),
  });

async function leased(m: Machine) {
  const res = await acquire(m);
  expect(res.status, res.text).toBe(201);
  return res.body.leaseId;
}

const now = () => suite.app.clock.now();
const secondsAhead = (seconds: number) => new Date(now().getTime() + seconds * 1000);

async function liveLeases(licenseId: string) {
  const res = await suite.operator.api.leases.list({ params: { id: licenseId } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function events(type: string, licenseId: string) {
  const rows = await suite.app.deps.db
    .select()
    .from(tables.outboxEvents)
    .where(eq(tables.outboxEvents.eventType, type));
  return rows.filter((row) => (row.data as { licenseId: string }).licenseId === licenseId);
}

describe("POST /client/leases", () => {
  it("takes a seat: 201 with the lease, its expiry, when to renew and a signed lease token", async () => {
    const license = await floating();
    const m = await machine(license, "desk");
    const res = await acquire(m);
    expect(res.status, res.text).toBe(201);
    const expiresAt = secondsAhead(900);
    expect(res.body).toEqual({
      leaseId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      expiresAt: expiresAt.toISOString(),
      renewAfterSeconds: 300,
      leaseToken: expect.any(String),
    });
    const verified = verifyLeaseToken(res.body.leaseToken, license.publicKey);
    expect(verified).toEqual({
      valid: true,
      payload: {
        typ: "lease",
        lsid: res.body.leaseId,
        lid: license.id,
        aid: m.activationId,
        fp: "fp-desk",
        iat: Math.floor(now().getTime() / 1000),
        exp: Math.floor(expiresAt.getTime() / 1000),
      },
    });
  });

  it("answers 200 with the same lease when the activation holds a live one (idempotent)", async () => {
    const m = await machine(await floating({ maxSeats: 1 }), "again");
    const first = await acquire(m);
    suite.app.clock.advance(MINUTE);
    const again = await acquire(m);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ leaseId: first.body.leaseId, expiresAt: first.body.expiresAt });
    expect(again.body.renewAfterSeconds).toBe(280);
    expect(await liveLeases(m.license.id)).toHaveLength(1);
  });

  it("refuses a full pool with the holders, retryAt (the earliest expiry) and Retry-After", async () => {
    const license = await floating({ maxSeats: 2 });
    const [a, b, c] = [await machine(license, "a"), await machine(license, "b"), await machine(license, "c")];
    await leased(a);
    suite.app.clock.advance(MINUTE);
    await leased(b);
    suite.app.clock.advance(MINUTE);
    const full = await acquire(c);
    expect(full.status).toBe(409);
    const holders = await liveLeases(license.id);
    expect(full.error).toEqual({
      code: "lease.seats_exhausted",
      message: expect.any(String),
      status: 409,
      holders: holders.map((h) => ({
        machineName: h.machineName,
        acquiredAt: h.acquiredAt,
        expiresAt: h.expiresAt,
      })),
      retryAt: holders[0]!.expiresAt,
    });
    expect(holders.map((h) => h.machineName)).toEqual(["a", "b"]);
    expect(full.headers.get("retry-after")).toBe(String(13 * 60));
    expect(full.text).not.toMatch(/fp-|activationId|leaseId/);
  });

  it("publishes license.seats_exhausted on the first refusal of an hour only", async () => {
    const license = await floating({ maxSeats: 1 }, { leaseSeconds: 86_400 });
    const [a, b] = [await machine(license, "a"), await machine(license, "b")];
    await leased(a);
    expect((await acquire(b)).status).toBe(409);
    expect((await acquire(b)).status).toBe(409);
    const first = await events("license.seats_exhausted", license.id);
    expect(first.map((e) => e.data)).toEqual([{ licenseId: license.id, maxSeats: 1 }]);
    suite.app.clock.advance(HOUR - 1000);
    expect((await acquire(b)).status).toBe(409);
    expect(await events("license.seats_exhausted", license.id)).toHaveLength(1);
    suite.app.clock.advance(1000);
    expect((await acquire(b)).status).toBe(409);
    expect(await events("license.seats_exhausted", license.id)).toHaveLength(2);
  });

  it("counts a lease live only while now < expiresAt: an expired one frees its seat with no job run", async () => {
    const license = await floating({ maxSeats: 1 });
    const [a, b] = [await machine(license, "a"), await machine(license, "b")];
    await leased(a);
    suite.app.clock.advance(900_000 - 1);
    expect((await acquire(b)).status).toBe(409);
    suite.app.clock.advance(1000);
    expect((await acquire(b)).status).toBe(201);
    expect((await liveLeases(license.id)).map((l) => l.machineName)).toEqual(["b"]);
  });

  it("leaves an unlimited pool without maxSeats", async () => {
    const license = await floating({});
    for (let i = 0; i < 4; i++) expect((await acquire(await machine(license, `m${i}`))).status).toBe(201);
  });

  it("never lets a lease outlive its license's expiry", async () => {
    const expiresAt = new Date(now().getTime() + 5 * MINUTE);
    const m = await machine(await floating({}, { expiresAt: expiresAt.toISOString() }), "short");
    const res = await acquire(m);
    expect(res.body.expiresAt).toBe(expiresAt.toISOString());
    expect(res.body.renewAfterSeconds).toBe(100);
  });

  it("follows the license's leaseSeconds", async () => {
    const m = await machine(await floating({}, { leaseSeconds: 60 }), "minute");
    const res = await acquire(m);
    expect(res.body).toMatchObject({ expiresAt: secondsAhead(60).toISOString(), renewAfterSeconds: 20 });
  });

  it("answers activation.not_found for an unknown, deactivated or other license's activation", async () => {
    const license = await floating();
    const other = await machine(await floating(), "other");
    const gone = await machine(license, "gone");
    await suite.signed(gone.client, "deactivate", {
      licenseKey: license.licenseKey,
      activationId: gone.activationId,
    });
    for (const activationId of [other.activationId, gone.activationId, crypto.randomUUID()]) {
      const res = await suite.signed(gone.client, "acquireLease", {
        licenseKey: license.licenseKey,
        activationId,
      });
      expect([res.status, res.error.code]).toEqual([404, "activation.not_found"]);
    }
  });
});

describe("POST /client/leases/renew", () => {
  it("moves a live lease's expiry leaseSeconds ahead, same lease", async () => {
    const m = await machine(await floating(), "r");
    const leaseId = await leased(m);
    suite.app.clock.advance(5 * MINUTE);
    const res = await renew(m, leaseId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      leaseId,
      expiresAt: secondsAhead(900).toISOString(),
      renewAfterSeconds: 300,
    });
    const token = verifyLeaseToken(res.body.leaseToken, m.license.publicKey);
    expect(token.valid && token.payload.exp).toBe(Math.floor(Date.parse(res.body.expiresAt) / 1000));
  });

  it("brings an expired lease back when a seat is free (the machine came back): a new span, same id", async () => {
    const license = await floating({ maxSeats: 1 });
    const m = await machine(license, "sleeper");
    const leaseId = await leased(m);
    suite.app.clock.advance(2 * HOUR);
    const res = await renew(m, leaseId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ leaseId, expiresAt: secondsAhead(900).toISOString() });
    const [live] = await liveLeases(license.id);
    expect(live).toMatchObject({ leaseId, acquiredAt: now().toISOString() });
    const spans = await suite.app.deps.db.select().from(tables.leases).where(eq(tables.leases.id, leaseId));
    expect(spans.map((s) => s.span).sort()).toEqual([1, 2]);
  });

  it("refuses an expired lease whose seat was taken meanwhile, until a seat frees", async () => {
    const license = await floating({ maxSeats: 1 });
    const [a, b] = [await machine(license, "a"), await machine(license, "b")];
    const leaseA = await leased(a);
    suite.app.clock.advance(901_000);
    const leaseB = await leased(b);
    const refused = await renew(a, leaseA);
    expect([refused.status, refused.error.code]).toEqual([409, "lease.seats_exhausted"]);
    expect(refused.error).toMatchObject({
      holders: [{ machineName: "b" }],
      retryAt: secondsAhead(900).toISOString(),
    });
    expect((await release(b, leaseB)).status).toBe(204);
    const back = await renew(a, leaseA);
    expect(back.status, back.text).toBe(200);
    expect(back.body.leaseId).toBe(leaseA);
  });

  it("answers 410 lease.released for a released lease, and lease.not_found for an unknown one", async () => {
    const m = await machine(await floating(), "rel");
    const leaseId = await leased(m);
    expect((await release(m, leaseId)).status).toBe(204);
    const res = await renew(m, leaseId);
    expect([res.status, res.error.code]).toEqual([410, "lease.released"]);
    suite.app.clock.advance(DAY);
    expect((await renew(m, leaseId)).status).toBe(410);
    const unknown = await renew(m, crypto.randomUUID());
    expect([unknown.status, unknown.error.code]).toEqual([404, "lease.not_found"]);
    const otherLicense = await machine(await floating(), "elsewhere");
    const foreign = await renew(otherLicense, leaseId);
    expect([foreign.status, foreign.error.code]).toEqual([404, "lease.not_found"]);
  });

  it("gives each of many simultaneous renewals its own answer", async () => {
    const license = await floating({ maxSeats: 20 });
    const machines = await Promise.all(Array.from({ length: 20 }, (_, i) => machine(license, `s${i}`)));
    const leaseIds = await Promise.all(machines.map(leased));
    suite.app.clock.advance(MINUTE);
    const answers = await Promise.all(machines.map((m, i) => renew(m, leaseIds[i]!)));
    expect(answers.map((a) => a.status)).toEqual(machines.map(() => 200));
    expect(answers.map((a) => a.body.leaseId)).toEqual(leaseIds);
    for (const [i, a] of answers.entries()) {
      const token = verifyLeaseToken(a.body.leaseToken, license.publicKey);
      expect(token.valid && [token.payload.lsid, token.payload.aid]).toEqual([
        leaseIds[i],
        machines[i]!.activationId,
      ]);
    }
  });
});

describe("POST /client/leases/release", () => {
  it("frees the seat at once, and answers 204 again for a released lease (idempotent)", async () => {
    const license = await floating({ maxSeats: 1 });
    const [a, b] = [await machine(license, "a"), await machine(license, "b")];
    const leaseId = await leased(a);
    expect((await acquire(b)).status).toBe(409);
    expect((await release(a, leaseId)).status).toBe(204);
    expect((await release(a, leaseId)).status).toBe(204);
    expect((await acquire(b)).status).toBe(201);
  });

  it("releases an expired lease too, so a late renew does not bring it back", async () => {
    const m = await machine(await floating(), "late");
    const leaseId = await leased(m);
    suite.app.clock.advance(HOUR);
    expect((await release(m, leaseId)).status).toBe(204);
    expect((await renew(m, leaseId)).status).toBe(410);
  });

  it("works whatever the license's status, and answers lease.not_found for an unknown lease", async () => {
    const m = await machine(await floating(), "susp");
    const leaseId = await leased(m);
    await suite.operator.api.licenses.suspend({ params: { id: m.license.id } });
    expect((await release(m, leaseId)).status).toBe(204);
    const res = await release(m, crypto.randomUUID());
    expect([res.status, res.error.code]).toEqual([404, "lease.not_found"]);
  });
});

describe("POST /client/leases/borrow", () => {
  it("keeps the lease until `until`, holding its seat while offline, and an early release frees it", async () => {
    const license = await floating({ maxSeats: 1 }, { maxBorrowDays: 7 });
    const [a, b] = [await machine(license, "laptop"), await machine(license, "desk")];
    const leaseId = await leased(a);
    const until = new Date(now().getTime() + 7 * DAY);
    const res = await borrow(a, leaseId, until);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ leaseId, expiresAt: until.toISOString() });
    const token = verifyLeaseToken(res.body.leaseToken, license.publicKey);
    expect(token.valid && token.payload.exp).toBe(Math.floor(until.getTime() / 1000));

    suite.app.clock.advance(3 * DAY);
    expect(await liveLeases(license.id)).toEqual([
      expect.objectContaining({
        leaseId,
        borrowedUntil: until.toISOString(),
        expiresAt: until.toISOString(),
      }),
    ]);
    expect((await acquire(b)).status).toBe(409);
    // A renew while borrowed keeps the borrow's end.
    expect((await renew(a, leaseId)).body.expiresAt).toBe(until.toISOString());
    expect((await release(a, leaseId)).status).toBe(204);
    expect((await acquire(b)).status).toBe(201);
  });

  it("accepts exactly maxBorrowDays ahead and refuses a millisecond more with lease.borrow_too_long", async () => {
    const m = await machine(await floating({}, { maxBorrowDays: 2 }), "b2");
    const leaseId = await leased(m);
    const tooLong = await borrow(m, leaseId, new Date(now().getTime() + 2 * DAY + 1));
    expect([tooLong.status, tooLong.error.code]).toEqual([400, "lease.borrow_too_long"]);
    expect((await borrow(m, leaseId, new Date(now().getTime() + 2 * DAY))).status).toBe(200);
  });

  it("refuses to borrow past the license's own expiry", async () => {
    const expiresAt = new Date(now().getTime() + DAY);
    const m = await machine(
      await floating({}, { maxBorrowDays: 7, expiresAt: expiresAt.toISOString() }),
      "e",
    );
    const leaseId = await leased(m);
    const res = await borrow(m, leaseId, new Date(now().getTime() + 2 * DAY));
    expect([res.status, res.error.code]).toEqual([400, "lease.borrow_too_long"]);
  });

  it("answers 403 lease.borrow_not_allowed when maxBorrowDays is 0", async () => {
    const m = await machine(await floating(), "nob");
    const leaseId = await leased(m);
    const res = await borrow(m, leaseId, new Date(now().getTime() + HOUR));
    expect([res.status, res.error.code]).toEqual([403, "lease.borrow_not_allowed"]);
  });

  it("refuses an until that is not ahead, or not a timestamp, with request.invalid", async () => {
    const m = await machine(await floating({}, { maxBorrowDays: 7 }), "past");
    const leaseId = await leased(m);
    for (const until of [
      now().toISOString(),
      new Date(now().getTime() - 1).toISOString(),
      "tomorrow",
      "2026-13-01",
    ]) {
      const res = await borrow(m, leaseId, until);
      expect([res.status, res.error.code], until).toEqual([400, "request.invalid"]);
      expect(res.error.message, until).toContain("until");
    }
  });

  it("brings an expired lease back for the borrow when a seat is free", async () => {
    const m = await machine(await floating({ maxSeats: 1 }, { maxBorrowDays: 7 }), "back");
    const leaseId = await leased(m);
    suite.app.clock.advance(DAY);
    const until = new Date(now().getTime() + 2 * DAY);
    const res = await borrow(m, leaseId, until);
    expect(res.body).toMatchObject({ leaseId, expiresAt: until.toISOString() });
  });
});

describe("what ends leases", () => {
  it("suspension and revocation: license.not_active while not live; a resume brings no lease back", async () => {
    const license = await floating();
    const m = await machine(license, "s");
    const leaseId = await leased(m);
    expect((await suite.operator.api.licenses.suspend({ params: { id: license.id } })).status).toBe(200);
    for (const res of [
      await renew(m, leaseId),
      await acquire(m),
      await borrow(m, leaseId, new Date(now().getTime() + HOUR)),
    ]) {
      expect([res.status, res.error.code]).toEqual([400, "license.not_active"]);
    }
    expect(await liveLeases(license.id)).toEqual([]);
    await suite.operator.api.licenses.resume({ params: { id: license.id } });
    expect((await renew(m, leaseId)).status).toBe(410);
    const again = await leased(m);
    expect((await suite.operator.api.licenses.revoke({ params: { id: license.id }, body: {} })).status).toBe(
      204,
    );
    expect(await liveLeases(license.id)).toEqual([]);
    const [row] = await suite.app.deps.db.select().from(tables.leases).where(eq(tables.leases.id, again));
    expect(row).toMatchObject({ releaseReason: "license.revoked", releasedAt: now() });
  });

  it("an expired license: license.not_active, its leases gone with it", async () => {
    const expiresAt = new Date(now().getTime() + HOUR);
    const license = await floating({}, { expiresAt: expiresAt.toISOString() });
    const m = await machine(license, "x");
    const leaseId = await leased(m);
    suite.app.clock.advance(HOUR);
    expect((await renew(m, leaseId)).error.code).toBe("license.not_active");
    expect(await liveLeases(license.id)).toEqual([]);
  });

  it("deactivating the activation ends its lease and frees the seat", async () => {
    const license = await floating({ maxSeats: 1 });
    const [a, b] = [await machine(license, "a"), await machine(license, "b")];
    const leaseId = await leased(a);
    await suite.signed(a.client, "deactivate", {
      licenseKey: license.licenseKey,
      activationId: a.activationId,
    });
    expect((await renew(a, leaseId)).status).toBe(410);
    expect((await acquire(b)).status).toBe(201);
  });

  it("an expired lease of a deactivated activation does not come back", async () => {
    const m = await machine(await floating(), "d");
    const leaseId = await leased(m);
    suite.app.clock.advance(HOUR);
    await suite.operator.api.activations.reset({
      params: { id: m.license.id, activationId: m.activationId },
    });
    expect((await renew(m, leaseId)).status).toBe(410);
  });
});

describe("floating licenses' machines", () => {
  it("activations register machines and take no seat; limits.maxMachines caps them", async () => {
    const license = await floating({ maxSeats: 1, maxMachines: 2 });
    const [a] = [await machine(license, "a"), await machine(license, "b")];
    const client = await suite.app.client();
    const third = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "c" },
    });
    expect(third.status).toBe(409);
    expect(third.error.code).toBe("activation.machine_limit_reached");
    expect(third.error.machines!.map((m) => m.machineName).sort()).toEqual(["a", "b"]);
    // A known machine still gets its activation back.
    const known = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "fp-a" },
    });
    expect(known.body.activationId).toBe(a.activationId);
  });

  it("without maxMachines any number of machines register, whatever maxSeats", async () => {
    const license = await floating({ maxSeats: 1 });
    for (let i = 0; i < 4; i++) await machine(license, `m${i}`);
  });

  it("the machine limit holds under the locked path too (a device budget)", async () => {
    const license = await floating({ maxMachines: 1 }, { maxNewDevicesPerWindow: 5 });
    await machine(license, "one");
    const client = await suite.app.client();
    const res = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "two" },
    });
    expect(res.error.code).toBe("activation.machine_limit_reached");
  });

  it("a node-locked license answers the lease endpoints with lease.not_floating", async () => {
    const license = await suite.issue();
    const m = await machine(license, "nl");
    const leaseId = crypto.randomUUID();
    for (const res of [
      await acquire(m),
      await renew(m, leaseId),
      await release(m, leaseId),
      await borrow(m, leaseId, new Date(now().getTime() + HOUR)),
    ]) {
      expect([res.status, res.error.code]).toEqual([409, "lease.not_floating"]);
    }
  });
});

describe("the lease endpoints' input and signature", () => {
  it("refuse an unsigned, stale or wrongly keyed request", async () => {
    const m = await machine(await floating(), "sig");
    const leaseId = await leased(m);
    const body = { licenseKey: m.license.licenseKey, leaseId };
    for (const path of [
      "/api/v1/client/leases/renew",
      "/api/v1/client/leases/release",
      "/api/v1/client/leases/borrow",
    ]) {
      const res = await m.client.post(path, {
        ...body,
        until: new Date(now().getTime() + HOUR).toISOString(),
      });
      expect([res.status, (res.json as { code: string }).code], path).toEqual([401, "hmac.missing"]);
    }
    const unsigned = await m.client.post("/api/v1/client/leases", {
      licenseKey: m.license.licenseKey,
      activationId: m.activationId,
    });
    expect((unsigned.json as { code: string }).code).toBe("hmac.missing");
    const stale = await suite.signed(m.client, "renewLease", body, { skewSeconds: -301 });
    expect(stale.error.code).toBe("hmac.stale");
    const otherKey = await suite.signed(m.client, "renewLease", body, { key: "SVC-OTHER" });
    expect(otherKey.error.code).toBe("hmac.mismatch");
    const replayed = await suite.signed(
      m.client,
      "releaseLease",
      { ...body, leaseId: crypto.randomUUID() },
      { sendBody: body },
    );
    expect(replayed.error.code).toBe("hmac.mismatch");
    expect(await liveLeases(m.license.id)).toHaveLength(1);
  });

  it.each([
    ["acquireLease", { activationId: "not-a-uuid" }, "body.activationId"],
    ["acquireLease", {}, "body.activationId"],
    ["renewLease", { leaseId: 42 }, "body.leaseId"],
    ["releaseLease", { leaseId: "" }, "body.leaseId"],
    ["borrowLease", { leaseId: "7d0e6c3b-2f61-4a55-9c1e-2b8f0e6f3a11" }, "body.until"],
    ["borrowLease", { leaseId: "7d0e6c3b-2f61-4a55-9c1e-2b8f0e6f3a11", until: 1_790_000_000 }, "body.until"],
  ] as const)("%s with %j is request.invalid naming %s", async (operation, fields, field) => {
    const m = await machine(await floating(), "bad");
    const res = await suite.signed(m.client, operation, {
      licenseKey: m.license.licenseKey,
      ...fields,
    } as never);
    expect([res.status, res.error.code]).toEqual([400, "request.invalid"]);
    expect(res.error.message).toContain(`${field}:`);
  });

  it("answer license.not_found for an unknown key signed with itself", async () => {
    const client = await suite.app.client();
    const licenseKey = "SVC-00000-00000-00000-00000-00000";
    const res = await suite.signed(client, "renewLease", { licenseKey, leaseId: crypto.randomUUID() });
    expect([res.status, res.error.code]).toEqual([404, "license.not_found"]);
    const acquired = await suite.signed(client, "acquireLease", {
      licenseKey,
      activationId: crypto.randomUUID(),
    });
    expect(acquired.error.code).toBe("license.not_found");
  });
});

describe("the panel", () => {
  it("lists live leases with machine, activation, acquired, expires and borrowed until", async () => {
    const license = await floating({ maxSeats: 3 }, { maxBorrowDays: 3 });
    const [a, b] = [await machine(license, "a"), await machine(license, "b")];
    const leaseA = await leased(a);
    suite.app.clock.advance(MINUTE);
    const leaseB = await leased(b);
    const until = new Date(now().getTime() + DAY);
    await borrow(b, leaseB, until);
    expect(await liveLeases(license.id)).toEqual([
      {
        leaseId: leaseA,
        activationId: a.activationId,
        machineName: "a",
        acquiredAt: new Date(now().getTime() - MINUTE).toISOString(),
        expiresAt: expect.any(String),
        borrowedUntil: null,
      },
      {
        leaseId: leaseB,
        activationId: b.activationId,
        machineName: "b",
        acquiredAt: now().toISOString(),
        expiresAt: until.toISOString(),
        borrowedUntil: until.toISOString(),
      },
    ]);
    expect(await liveLeases((await suite.issue()).id)).toEqual([]);
  });

  it("force-releases a lease: 204, audited, and the holder's next renew gets 410", async () => {
    const license = await floating({ maxSeats: 1 });
    const [a, b] = [await machine(license, "a"), await machine(license, "b")];
    const leaseId = await leased(a);
    const res = await suite.operator.api.leases.forceRelease({ params: { leaseId } });
    expect(res.status, res.text).toBe(204);
    expect((await suite.operator.api.leases.forceRelease({ params: { leaseId } })).status).toBe(204);
    const audit = await suite.app.deps.db
      .select()
      .from(tables.auditLog)
      .where(and(eq(tables.auditLog.action, "lease.force_released"), eq(tables.auditLog.entityId, leaseId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      entityType: "lease",
      meta: { licenseId: license.id, activationId: a.activationId },
    });
    const renewed = await renew(a, leaseId);
    expect([renewed.status, renewed.error.code]).toEqual([410, "lease.released"]);
    expect((await acquire(b)).status).toBe(201);
  });

  it("answers lease.not_found for an unknown lease", async () => {
    const res = await suite.operator.api.leases.forceRelease({ params: { leaseId: crypto.randomUUID() } });
    expect([res.status, res.error.code]).toEqual([404, "lease.not_found"]);
  });
});
