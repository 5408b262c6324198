import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, trpcError, type TestApp, type TestClient } from "../testing/index.ts";
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

const rest = async (client: TestClient, path: string, params: Record<string, string> = {}) => {
  const res = await client.get(`/api/v1/panel/${path}?${new URLSearchParams(params)}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("tRPC operator console", () => {
  it("answers overview, tenants and licenses exactly as REST does", async () => {
    const ops = operator.trpc.operator;
    expect(await ops.overview.query()).toEqual(await rest(operator, "operator/overview"));
    const overview = await ops.overview.query();
    expect(overview).toMatchObject({
      totalCompanies: 5,
      rootCompanies: 3,
      licenses: { active: 4, suspended: 0, revoked: 1, expired: 0, total: 5 },
      trialLicenses: 1,
      activeActivations: 3,
    });
    expect(await ops.tenants.query({ search: "alp" })).toEqual(
      await rest(operator, "operator/tenants", { search: "alp" }),
    );
    const tenants = await ops.tenants.query({ pageSize: 2 });
    expect(tenants).toMatchObject({ total: 3, pageSize: 2 });
    expect(tenants.items[0]).toMatchObject({ id: world.alpha, descendantCount: 2, licenseCount: 3 });

    const filters = { templateId: world.t1.id, status: "active", trial: false };
    const licenses = await ops.licenses.query(filters);
    expect(licenses).toEqual(
      await rest(operator, "operator/licenses", { ...filters, trial: "false" } as Record<string, string>),
    );
    expect(licenses.items.map((l) => l.id)).toEqual(
      [world.licenses.l5, world.licenses.l2, world.licenses.l1].map((l) => l.id),
    );
    expect((await ops.licenses.query({ trial: true })).items).toHaveLength(1);
  });

  it("refuses non-operators with FORBIDDEN auth.operator_required, and bad filters", async () => {
    for (const client of [world.subViewer.client, world.leafToken]) {
      const ops = client.trpc.operator;
      // Thunks, not promises: a rejection created before it is awaited is unhandled.
      const calls = [() => ops.overview.query(), () => ops.tenants.query({}), () => ops.licenses.query({})];
      for (const call of calls) {
        const res = await trpcError(call());
        expect(res.data.httpStatus).toBe(403);
        expect(res.data).toMatchObject({ code: "FORBIDDEN", appCode: "auth.operator_required" });
      }
    }
    const bad = await trpcError(operator.trpc.operator.licenses.query({ status: "Lost" }));
    expect(bad.data.httpStatus).toBe(400);
    expect(bad.data.appCode).toBe("license.invalid_status");
  });
});

describe("tRPC analytics", () => {
  it("answers usage, distribution and concurrency in every scope exactly as REST does", async () => {
    const window = { from: `${world.days[0]}T00:00:00Z`, to: app.clock.now().toISOString() };
    const scopes: Array<[TestClient, Record<string, string>]> = [
      [operator, {}],
      [operator, { companyId: world.alpha }],
      [world.subViewer.client, {}],
      [world.subViewer.client, { companyId: world.alphaLeaf }],
      [world.leafToken, {}],
      [world.homeless.client, {}],
    ];
    for (const [client, scope] of scopes) {
      const usage = await client.trpc.analytics.usage.query({ ...window, ...scope });
      expect(usage).toEqual(await rest(client, "analytics/usage", { ...window, ...scope }));
      const distribution = await client.trpc.analytics.distribution.query(scope);
      expect(distribution).toEqual(await rest(client, "analytics/distribution", scope));
      const concurrency = await client.trpc.analytics.concurrency.query({ ...window, ...scope });
      expect(concurrency).toEqual(await rest(client, "analytics/concurrency", { ...window, ...scope }));
    }
    const platform = await operator.trpc.analytics.usage.query(window);
    expect(seriesOf(platform)).toEqual({
      [world.days[0]]: [2, 2, 3],
      [world.days[1]]: [2, 2, 1],
      [world.days[2]]: [0, 1, 1],
    });
    const leaf = await world.leafToken.trpc.analytics.distribution.query({});
    expect(leaf.topCompaniesByActivations).toEqual([
      { companyId: world.alphaLeaf, companyName: "Alpha Leaf", count: 1 },
    ]);
    expect((await operator.trpc.analytics.usage.query({})).heartbeats).toHaveLength(31);
  });

  it("answers the spec's codes for bad windows and foreign companies", async () => {
    const analytics = operator.trpc.analytics;
    const inverted = await trpcError(
      analytics.usage.query({ from: "2026-02-02T00:00:00Z", to: "2026-02-01T00:00:00Z" }),
    );
    expect(inverted.data.httpStatus).toBe(400);
    expect(inverted.data).toMatchObject({ code: "BAD_REQUEST", appCode: "analytics.invalid_range" });
    const long = await trpcError(analytics.usage.query({ from: "2025-01-01", to: "2026-01-03" }));
    expect(long.data).toMatchObject({ code: "BAD_REQUEST", appCode: "analytics.range_too_large" });
    const viewer = world.subViewer.client.trpc.analytics;
    for (const call of [
      () => viewer.usage.query({ companyId: world.beta }),
      () => viewer.distribution.query({ companyId: world.beta }),
    ]) {
      const res = await trpcError(call());
      expect(res.data.httpStatus).toBe(403);
      expect(res.data).toMatchObject({ code: "FORBIDDEN", appCode: "auth.company_out_of_scope" });
    }
    const malformed = await trpcError(analytics.distribution.query({ companyId: "nope" }));
    expect(malformed.data).toMatchObject({ code: "BAD_REQUEST", appCode: "request.invalid" });
    const anonymous = await app.client();
    expect((await trpcError(anonymous.trpc.analytics.usage.query({}))).data.httpStatus).toBe(401);
  });
});
