import { analytics, DAY } from "@licensing/core";
import { tables } from "@licensing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { RequestOf } from "../testing/api-client.ts";
import { createCompany } from "../testing/fixtures.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { issueLicense } from "../testing/client-api.ts";
import { buildUsageWorld, seriesOf, type UsageWorld } from "../testing/usage-scenario.ts";

let app: TestApp;
let operator: TestClient;
let world: UsageWorld;
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  world = await buildUsageWorld(app, operator);
});
afterAll(() => app.close());

const USAGE = "/api/v1/panel/analytics/usage";
const DISTRIBUTION = "/api/v1/panel/analytics/distribution";
type UsageQuery = NonNullable<RequestOf<typeof operations.analytics.usage>["query"]>;
type DistributionQuery = NonNullable<RequestOf<typeof operations.analytics.distribution>["query"]>;
const usage = (client: TestClient, query: UsageQuery = {}) => client.api.analytics.usage({ query });
const distribution = (client: TestClient, query: DistributionQuery = {}) =>
  client.api.analytics.distribution({ query });
/** Queries the schema refuses, sent as they are. */
const usageUntyped = (client: TestClient, query: Record<string, string>) =>
  client.get(`${USAGE}?${new URLSearchParams(query)}`);
const distributionUntyped = (client: TestClient, query: Record<string, string>) =>
  client.get(`${DISTRIBUTION}?${new URLSearchParams(query)}`);
const window = () => ({ from: `${world.days[0]}T00:00:00Z`, to: app.clock.now().toISOString() });

/** What each scope must see over days 0..2, as [activations, heartbeats, licensesIssued] per day. */
const expected = () => {
  const [d0, d1, d2] = world.days;
  return {
    platform: { [d0]: [2, 2, 3], [d1]: [2, 2, 1], [d2]: [0, 1, 1] },
    alpha: { [d0]: [2, 2, 2], [d1]: [2, 2, 1], [d2]: [0, 1, 0] },
    alphaSub: { [d0]: [1, 0, 1], [d1]: [1, 2, 1], [d2]: [0, 0, 0] },
    alphaLeaf: { [d0]: [0, 0, 0], [d1]: [1, 1, 1], [d2]: [0, 0, 0] },
    beta: { [d0]: [0, 0, 1], [d1]: [0, 0, 0], [d2]: [0, 0, 1] },
    none: { [d0]: [0, 0, 0], [d1]: [0, 0, 0], [d2]: [0, 0, 0] },
  };
};

describe("GET /analytics/usage", () => {
  it("counts every day of the window for each scope, from raw rows and then from the rollups alike", async () => {
    const cases: Array<[string, TestClient, UsageQuery, keyof ReturnType<typeof expected>]> = [
      ["operator, platform", operator, {}, "platform"],
      ["operator, companyId=Alpha (its subtree)", operator, { companyId: world.alpha }, "alpha"],
      ["operator, companyId=Beta", operator, { companyId: world.beta }, "beta"],
      ["viewer of Alpha Sub (its subtree)", world.subViewer.client, {}, "alphaSub"],
      [
        "viewer of Alpha Sub, narrowed to Alpha Leaf",
        world.subViewer.client,
        { companyId: world.alphaLeaf },
        "alphaLeaf",
      ],
      ["token of Alpha Leaf", world.leafToken, {}, "alphaLeaf"],
      ["user without a company", world.homeless.client, {}, "none"],
    ];
    const answers = async () => {
      const out: Record<string, unknown> = {};
      for (const [name, client, query] of cases) {
        const res = await usage(client, { ...window(), ...query });
        expect(res.status, name).toBe(200);
        out[name] = seriesOf(res.body);
      }
      return out;
    };
    const want = Object.fromEntries(cases.map(([name, , , scope]) => [name, expected()[scope]]));

    expect(await app.deps.db.select().from(tables.usageDaily)).toEqual([]);
    expect(await answers()).toEqual(want);

    // The rollup job closes days 0 and 1; day 2 stays raw. The answers do not move.
    expect(await analytics.rollupUsage(app.deps)).toBeGreaterThanOrEqual(2);
    expect(await analytics.rolledThrough(app.deps.db)).toBe(world.days[1]);
    const rolled = await app.deps.db.select().from(tables.usageDaily);
    expect(
      rolled
        .filter((row) => row.day === world.days[1])
        .map((row) => row.companyId)
        .sort(),
    ).toEqual([world.alpha, world.alphaSub, world.alphaLeaf].sort());
    expect(await answers()).toEqual(want);
    // A second run has nothing left to do.
    expect(await analytics.rollupUsage(app.deps)).toBe(0);
  });

  it("echoes the window, one item per UTC day in ascending order, zero days included", async () => {
    const from = new Date(Date.parse(`${world.days[0]}T00:00:00Z`) - 3 * DAY + 5 * 3_600_000);
    const res = await usage(operator, { from: from.toISOString(), to: app.clock.now().toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.from).toBe(from.toISOString());
    expect(res.body.to).toBe(app.clock.now().toISOString());
    for (const series of [res.body.activations, res.body.heartbeats, res.body.licensesIssued]) {
      expect(series).toHaveLength(6);
      const dates = series.map((item) => item.date);
      expect(dates).toEqual([...dates].sort());
      expect(dates.at(-1)).toBe(world.days[2]);
    }
    expect(res.body.heartbeats.slice(0, 3).map((item) => item.count)).toEqual([0, 0, 0]);
  });

  it("defaults to the last 30 days up to now", async () => {
    const res = await usage(operator);
    expect(res.status).toBe(200);
    expect(res.body.to).toBe(app.clock.now().toISOString());
    expect(res.body.from).toBe(new Date(app.clock.now().getTime() - 30 * DAY).toISOString());
    expect(res.body.heartbeats).toHaveLength(31);
    expect(seriesOf(res.body)).toMatchObject(expected().platform);
    const onlyFrom = await usage(operator, { to: `${world.days[1]}T12:00:00Z` });
    expect(onlyFrom.body.from).toBe(
      new Date(Date.parse(`${world.days[1]}T12:00:00Z`) - 30 * DAY).toISOString(),
    );
  });

  it("accepts plain dates as the start of that UTC day", async () => {
    const res = await usage(operator, { from: world.days[0], to: world.days[1] });
    expect(res.status).toBe(200);
    expect(res.body.from).toBe(`${world.days[0]}T00:00:00.000Z`);
    expect(seriesOf(res.body)).toEqual({
      [world.days[0]]: expected().platform[world.days[0]],
      [world.days[1]]: expected().platform[world.days[1]],
    });
  });

  it("answers 400 analytics.invalid_range when from is later than to", async () => {
    const res = await usage(operator, { from: "2026-02-02T00:00:00Z", to: "2026-02-01T00:00:00Z" });
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: "analytics.invalid_range",
      message: expect.stringMatching(/later/),
      status: 400,
    });
  });

  it("answers 400 naming the field for a date outside the years 1970 to 9999 (found by the fuzz test)", async () => {
    const queries: Record<string, string>[] = [
      { to: "0000-02-29" },
      { from: "0001-01-01T00:00:00Z" },
      { to: "1969-12-31" },
    ];
    for (const query of queries) {
      const res = await usageUntyped(operator, query);
      expect(res.status).toBe(400);
      expect(res.error).toMatchObject({ code: "request.invalid", status: 400 });
      expect(res.error.message).toMatch(/1970 and 9999/);
    }
  });

  it("allows 366 days and answers 400 analytics.range_too_large past them", async () => {
    const ok = await usage(operator, { from: "2025-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z" });
    expect(ok.status).toBe(200);
    expect(ok.body.heartbeats).toHaveLength(367);
    const res = await usage(operator, { from: "2025-01-01T00:00:00Z", to: "2026-01-02T00:00:01Z" });
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: "analytics.range_too_large",
      message: expect.stringMatching(/366/),
      status: 400,
    });
    const defaultFrom = await usage(operator, { to: "2026-01-01T00:00:00Z", from: "2024-01-01" });
    expect(defaultFrom.error.code).toBe("analytics.range_too_large");
  });

  it.each([
    [{ from: "yesterday" }, /^query\.from/],
    [{ to: "2026-13-01T00:00:00Z" }, /^query\.to/],
    [{ companyId: "not-a-uuid" }, /^query\.companyId/],
  ])("answers 400 request.invalid for %j", async (query, message) => {
    const res = await usageUntyped(operator, query);
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: "request.invalid",
      message: expect.stringMatching(message),
      status: 400,
    });
  });

  it("answers 403 auth.company_out_of_scope for a company outside the caller's subtree", async () => {
    for (const companyId of [world.alpha, world.beta, "00000000-0000-4000-8000-000000000000"]) {
      const res = await usage(world.subViewer.client, { companyId });
      expect(res.status).toBe(403);
      expect(res.error).toEqual({
        code: "auth.company_out_of_scope",
        message: expect.any(String),
        status: 403,
      });
    }
    const token = await usage(world.leafToken, { companyId: world.alphaSub });
    expect(token.error.code).toBe("auth.company_out_of_scope");
  });

  it("answers 404 company.not_found to an operator naming an unknown company, 401 without a session", async () => {
    const res = await usage(operator, { companyId: "00000000-0000-4000-8000-000000000000" });
    expect(res.status).toBe(404);
    expect(res.error.code).toBe("company.not_found");
    expect((await usage(await app.client())).status).toBe(401);
  });
});

describe("GET /analytics/distribution", () => {
  const t = (template: { id: string; productCode: string }, name: string, count: number) => ({
    templateId: template.id,
    productCode: template.productCode,
    templateName: name,
    count,
  });

  it("counts licenses of any status and active activations per template, most first, for the platform", async () => {
    const res = await distribution(operator);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      // L1, L2, L5 (T1) and L3 (revoked), L4 (T2)
      licensesByTemplate: [t(world.t1, "Editor", 3), t(world.t2, "Viewer", 2)],
      // m1 and m3 of L1 (T1); m4 of L4 (T2); m2 was deactivated
      activationsByTemplate: [t(world.t1, "Editor", 2), t(world.t2, "Viewer", 1)],
      topCompaniesByActivations: [
        { companyId: world.alpha, companyName: "Alpha", count: 2 },
        { companyId: world.alphaLeaf, companyName: "Alpha Leaf", count: 1 },
      ],
    });
  });

  it("narrows to a subtree for members, tokens and companyId", async () => {
    const sub = await distribution(world.subViewer.client);
    expect(sub.body).toEqual({
      licensesByTemplate: [t(world.t1, "Editor", 1), t(world.t2, "Viewer", 1)],
      activationsByTemplate: [t(world.t2, "Viewer", 1)],
      topCompaniesByActivations: [{ companyId: world.alphaLeaf, companyName: "Alpha Leaf", count: 1 }],
    });
    expect((await distribution(world.leafToken)).body).toEqual({
      licensesByTemplate: [t(world.t2, "Viewer", 1)],
      activationsByTemplate: [t(world.t2, "Viewer", 1)],
      topCompaniesByActivations: [{ companyId: world.alphaLeaf, companyName: "Alpha Leaf", count: 1 }],
    });
    expect((await distribution(operator, { companyId: world.beta })).body).toEqual({
      licensesByTemplate: [t(world.t1, "Editor", 1), t(world.t2, "Viewer", 1)],
      activationsByTemplate: [],
      topCompaniesByActivations: [],
    });
    expect((await distribution(world.subViewer.client, { companyId: world.alphaLeaf })).body).toEqual(
      (await distribution(world.leafToken)).body,
    );
    expect((await distribution(world.homeless.client)).body).toEqual({
      licensesByTemplate: [],
      activationsByTemplate: [],
      topCompaniesByActivations: [],
    });
  });

  it("answers 403 auth.company_out_of_scope outside the subtree and 400 for a malformed id", async () => {
    const res = await distribution(world.subViewer.client, { companyId: world.alpha });
    expect(res.status).toBe(403);
    expect(res.error).toEqual({
      code: "auth.company_out_of_scope",
      message: expect.any(String),
      status: 403,
    });
    expect((await distribution(world.leafToken, { companyId: world.beta })).error.code).toBe(
      "auth.company_out_of_scope",
    );
    expect((await distributionUntyped(operator, { companyId: "x" })).status).toBe(400);
  });

  it("lists at most 10 companies, the ones with the most active activations", async () => {
    const client = await app.client();
    const companies: string[] = [];
    for (let i = 0; i < 11; i++) {
      const company = await createCompany(operator, world.gamma, {
        name: `Gamma ${String(i).padStart(2, "0")}`,
      });
      companies.push(company.id);
      const license = await issueLicense(
        operator,
        { companyId: company.id, templateId: world.t2.id },
        { hwBinding: "none" },
      );
      // Gamma 00 gets 3 machines, Gamma 01 two, the others one each.
      for (let m = 0; m < (i === 0 ? 3 : i === 1 ? 2 : 1); m++) {
        const res = await client.api.client.activate({
          body: { licenseKey: license.licenseKey, hwFingerprint: `g${i}-${m}` },
        });
        expect(res.status).toBe(200);
      }
    }
    const res = await distribution(operator, { companyId: world.gamma });
    expect(res.body.topCompaniesByActivations).toHaveLength(10);
    expect(res.body.topCompaniesByActivations.slice(0, 2)).toEqual([
      { companyId: companies[0], companyName: "Gamma 00", count: 3 },
      { companyId: companies[1], companyName: "Gamma 01", count: 2 },
    ]);
    // Ties by name: Gamma 10 is the one left out.
    expect(res.body.topCompaniesByActivations.map((c) => c.companyName)).not.toContain("Gamma 10");
    const platform = await distribution(operator);
    expect(platform.body.topCompaniesByActivations).toHaveLength(10);
    expect(platform.body.topCompaniesByActivations[0]).toMatchObject({ companyName: "Gamma 00", count: 3 });
  });
});
