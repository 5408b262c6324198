import { analytics, DAY, HOUR, MINUTE } from "@licensing/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { RequestOf } from "../testing/api-client.ts";
import { issueLicense, signedPost, type IssuedLicense } from "../testing/client-api.ts";
import { createCompany, createMember, type Member } from "../testing/fixtures.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createTemplate } from "../testing/licensing.ts";

/**
 * Issue 23: GET /analytics/concurrency over hand-built lease timelines, written through the real client
 * API at an injected clock. Leases of one hour (3,600 s) unless renewed, released or borrowed.
 *
 *   Alpha (root) ─ Alpha Sub            Beta (root)
 *   A: Alpha Sub, template T1, 2 seats  B: Beta, template T2, 1 seat
 *
 * D0 10:00 a1 takes a seat on A; 10:30 a2 (A full); 10:45 a1 releases; a2 expires 11:30.
 *    10:00 b1 takes B's seat (B full) and lets it expire at 11:00.
 *    23:30 a3 takes a seat on A, crossing midnight.
 * D1 00:20 a3 renews (to 01:20); 00:30 a4 takes a seat (A full) and borrows it until D3 12:00;
 *    01:00 a3 releases.
 * D2 a4 holds its seat all day; 08:00 a5 takes the other one (A full) and lets it expire at 09:00.
 * D3 (today) 09:00 a6 takes the other seat (A full); the clock stops at 09:30.
 */
const D0 = Date.UTC(2031, 2, 10);
const at = (day: number, hh: number, mm = 0) => new Date(D0 + day * DAY + hh * HOUR + mm * MINUTE);
const dayOf = (day: number) => new Date(D0 + day * DAY).toISOString().slice(0, 10);

let app: TestApp;
let operator: TestClient;
let alpha: string;
let alphaSub: string;
let beta: string;
let t1: string;
let t2: string;
let subViewer: Member;

type Query = NonNullable<RequestOf<typeof operations.analytics.concurrency>["query"]>;
const concurrency = (client: TestClient, query: Query = {}) => client.api.analytics.concurrency({ query });
const window: Query = { from: dayOf(0), to: at(3, 9, 30).toISOString() };

beforeAll(async () => {
  app = await startTestApp();
  app.clock.set(at(0, 9));
  operator = await app.client({ signIn: true });
  alpha = (await createCompany(operator, null, { name: "Alpha", slug: "alpha-cc" })).id;
  alphaSub = (await createCompany(operator, alpha, { name: "Alpha Sub", slug: "alpha-sub-cc" })).id;
  beta = (await createCompany(operator, null, { name: "Beta", slug: "beta-cc" })).id;
  t1 = (await createTemplate(operator, { name: "Floating editor" })).id;
  t2 = (await createTemplate(operator, { name: "Floating viewer" })).id;
  const floating = (maxSeats: number) => ({
    seatModel: "floating" as const,
    leaseSeconds: 3600,
    maxBorrowDays: 5,
    hwBinding: "none" as const,
    config: JSON.stringify({ features: [], limits: { maxSeats } }),
  });
  const a = await issueLicense(operator, { companyId: alphaSub, templateId: t1 }, floating(2));
  const b = await issueLicense(operator, { companyId: beta, templateId: t2 }, floating(1));
  subViewer = await createMember(app, { companyId: alphaSub, role: "viewer" });

  const device = await app.client();
  const machine = async (license: IssuedLicense, name: string) => {
    const res = await device.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: `fp-${name}`, machineName: name },
    });
    if (res.status !== 200) throw new Error(`activate failed: ${res.status} ${res.text}`);
    return { license, activationId: res.body.activationId };
  };
  const call = async (path: string, body: object, status: number) => {
    const res = await signedPost<{ leaseId: string }>(
      device,
      app.clock.now(),
      `/api/v1/client/${path}`,
      body as never,
    );
    if (res.status !== status) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  type Machine = Awaited<ReturnType<typeof machine>>;
  const acquire = async (m: Machine) =>
    (await call("leases", { licenseKey: m.license.licenseKey, activationId: m.activationId }, 201)).leaseId;
  const release = (m: Machine, leaseId: string) =>
    call("leases/release", { licenseKey: m.license.licenseKey, leaseId }, 204);
  const renew = (m: Machine, leaseId: string) =>
    call("leases/renew", { licenseKey: m.license.licenseKey, leaseId }, 200);
  const borrow = (m: Machine, leaseId: string, until: Date) =>
    call("leases/borrow", { licenseKey: m.license.licenseKey, leaseId, until: until.toISOString() }, 200);

  const [a1, a2, a3, a4, a5, a6, b1] = [
    await machine(a, "a1"),
    await machine(a, "a2"),
    await machine(a, "a3"),
    await machine(a, "a4"),
    await machine(a, "a5"),
    await machine(a, "a6"),
    await machine(b, "b1"),
  ];
  app.clock.set(at(0, 10));
  const l1 = await acquire(a1);
  await acquire(b1);
  app.clock.set(at(0, 10, 30));
  await acquire(a2);
  app.clock.set(at(0, 10, 45));
  await release(a1, l1);
  app.clock.set(at(0, 23, 30));
  const l3 = await acquire(a3);
  app.clock.set(at(1, 0, 20));
  await renew(a3, l3);
  app.clock.set(at(1, 0, 30));
  const l4 = await acquire(a4);
  await borrow(a4, l4, at(3, 12));
  app.clock.set(at(1, 1));
  await release(a3, l3);
  app.clock.set(at(2, 8));
  await acquire(a5);
  app.clock.set(at(3, 9));
  await acquire(a6);
  app.clock.set(at(3, 9, 30));
});
afterAll(() => app.close());

/** `[peakLeases, fullSeconds]` per day. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const figures = (body: { days: Array<{ date: string; peakLeases: number; fullSeconds: number }> }) =>
  Object.fromEntries(body.days.map((d) => [d.date, [d.peakLeases, d.fullSeconds]]));

const expected = {
  // A: peak 2, full 10:30–10:45 (900 s); B: peak 1, full 10:00–11:00 (3,600 s).
  platform: {
    [dayOf(0)]: [3, 4500],
    [dayOf(1)]: [2, 1800],
    [dayOf(2)]: [2, 3600],
    [dayOf(3)]: [2, 1800],
  },
  alpha: { [dayOf(0)]: [2, 900], [dayOf(1)]: [2, 1800], [dayOf(2)]: [2, 3600], [dayOf(3)]: [2, 1800] },
  beta: { [dayOf(0)]: [1, 3600], [dayOf(1)]: [0, 0], [dayOf(2)]: [0, 0], [dayOf(3)]: [0, 0] },
  none: { [dayOf(0)]: [0, 0], [dayOf(1)]: [0, 0], [dayOf(2)]: [0, 0], [dayOf(3)]: [0, 0] },
};

async function expectFigures(rolled: boolean) {
  const platform = await concurrency(operator, window);
  expect(platform.status, platform.text).toBe(200);
  expect(platform.body).toMatchObject({
    from: `${dayOf(0)}T00:00:00.000Z`,
    to: at(3, 9, 30).toISOString(),
    maxSeats: 3,
  });
  expect(figures(platform.body), `rolled up: ${rolled}`).toEqual(expected.platform);
  const ofAlpha = await concurrency(operator, { ...window, companyId: alpha });
  expect(figures(ofAlpha.body)).toEqual(expected.alpha);
  expect(ofAlpha.body.maxSeats).toBe(2);
  const ofBeta = await concurrency(operator, { ...window, companyId: beta });
  expect(figures(ofBeta.body)).toEqual(expected.beta);
  const ofT1 = await concurrency(operator, { ...window, templateId: t1 });
  expect(figures(ofT1.body)).toEqual(expected.alpha);
  const ofT2InAlpha = await concurrency(operator, { ...window, companyId: alpha, templateId: t2 });
  expect(figures(ofT2InAlpha.body)).toEqual(expected.none);
  expect(ofT2InAlpha.body.maxSeats).toBe(0);
  // A Viewer of Alpha Sub sees its subtree: license A only.
  const viewer = await concurrency(subViewer.client, window);
  expect(figures(viewer.body)).toEqual(expected.alpha);
}

describe("GET /analytics/concurrency", () => {
  it("sums each license's peak and full seconds per UTC day, today up to now, from the spans alone", async () => {
    await expectFigures(false);
  });

  it("answers the same once the rollup job has closed the days before today, and reruns change nothing", async () => {
    expect(await analytics.rollupLeases(app.deps)).toBeGreaterThanOrEqual(3);
    expect(await analytics.leasesRolledThrough(app.deps.db)).toBe(dayOf(2));
    await expectFigures(true);
    expect(await analytics.rollupLeases(app.deps)).toBe(0);
    await expectFigures(true);
  });

  it("rolls up once when two instances run the job at the same time", async () => {
    await app.deps.db.execute(sql`update lease_rollup_state set rolled_through = null`);
    const runs = await Promise.all([analytics.rollupLeases(app.deps), analytics.rollupLeases(app.deps)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    const [rows] = rowsOf<{ n: number; distinct: number }>(
      await app.deps.db.execute(
        sql`select count(*)::int as n, count(distinct (day, company_id, template_id))::int as distinct from lease_concurrency_daily`,
      ),
    );
    expect(rows!.n).toBe(rows!.distinct);
    await expectFigures(true);
  });

  it("counts a day that is not over up to now, and nothing after", async () => {
    app.clock.set(at(3, 9, 45));
    const res = await concurrency(operator, { from: dayOf(3), to: at(4, 12).toISOString() });
    expect(figures(res.body)).toEqual({ [dayOf(3)]: [2, 2700], [dayOf(4)]: [0, 0] });
    app.clock.set(at(3, 9, 30));
  });

  it("answers 400 for a bad window and 403 outside the caller's subtree", async () => {
    const inverted = await concurrency(operator, { from: dayOf(3), to: dayOf(1) });
    expect(inverted.status).toBe(400);
    expect(inverted.error.code).toBe("analytics.invalid_range");
    const long = await concurrency(operator, { from: "2030-01-01", to: "2031-03-01" });
    expect(long.status).toBe(400);
    expect(long.error.code).toBe("analytics.range_too_large");
    const outside = await concurrency(subViewer.client, { ...window, companyId: beta });
    expect(outside.status).toBe(403);
    expect(outside.error).toEqual({
      code: "auth.company_out_of_scope",
      message: expect.any(String),
      status: 403,
    });
    expect((await app.client().then((c) => concurrency(c))).status).toBe(401);
  });
});
