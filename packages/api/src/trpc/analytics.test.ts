import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
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

const query = (client: TestClient, path: string, input?: unknown) =>
  client.get(
    `/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`,
  );
const data = (res: { status: number; text: string; body: { result?: { data: { json: unknown } } } }) => {
  expect(res.status, res.text).toBe(200);
  return res.body.result!.data.json as any; // eslint-disable-line @typescript-eslint/no-explicit-any
};
const appCode = (res: { body: { error: { json: { data: { appCode: string; code: string } } } } }) =>
  res.body.error.json.data;
const rest = async (client: TestClient, path: string, params: Record<string, string> = {}) => {
  const res = await client.get(`/api/v1/panel/${path}?${new URLSearchParams(params)}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("tRPC operator console", () => {
  it("answers overview, tenants and licenses exactly as REST does", async () => {
    expect(data(await query(operator, "operator.overview"))).toEqual(
      await rest(operator, "operator/overview"),
    );
    const overview = data(await query(operator, "operator.overview"));
    expect(overview).toMatchObject({
      totalCompanies: 5,
      rootCompanies: 3,
      licenses: { active: 4, suspended: 0, revoked: 1, expired: 0, total: 5 },
      trialLicenses: 1,
      activeActivations: 3,
    });
    expect(data(await query(operator, "operator.tenants", { search: "alp" }))).toEqual(
      await rest(operator, "operator/tenants", { search: "alp" }),
    );
    const tenants = data(await query(operator, "operator.tenants", { pageSize: 2 }));
    expect(tenants).toMatchObject({ total: 3, pageSize: 2 });
    expect(tenants.items[0]).toMatchObject({ id: world.alpha, descendantCount: 2, licenseCount: 3 });

    const filters = { templateId: world.t1.id, status: "active", trial: false };
    const licenses = data(await query(operator, "operator.licenses", filters));
    expect(licenses).toEqual(
      await rest(operator, "operator/licenses", { ...filters, trial: "false" } as Record<string, string>),
    );
    expect(licenses.items.map((l: { id: string }) => l.id)).toEqual(
      [world.licenses.l5, world.licenses.l2, world.licenses.l1].map((l) => l.id),
    );
    expect(data(await query(operator, "operator.licenses", { trial: true })).items).toHaveLength(1);
  });

  it("refuses non-operators with FORBIDDEN auth.operator_required, and bad filters", async () => {
    for (const path of ["operator.overview", "operator.tenants", "operator.licenses"]) {
      for (const client of [world.subViewer.client, world.leafToken]) {
        const res = await query(client, path, path === "operator.overview" ? undefined : {});
        expect(res.status).toBe(403);
        expect(appCode(res)).toMatchObject({ code: "FORBIDDEN", appCode: "auth.operator_required" });
      }
    }
    const bad = await query(operator, "operator.licenses", { status: "Lost" });
    expect(bad.status).toBe(400);
    expect(appCode(bad).appCode).toBe("license.invalid_status");
  });
});

describe("tRPC analytics", () => {
  it("answers usage and distribution in every scope exactly as REST does", async () => {
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
      const usage = data(await query(client, "analytics.usage", { ...window, ...scope }));
      expect(usage).toEqual(await rest(client, "analytics/usage", { ...window, ...scope }));
      const distribution = data(await query(client, "analytics.distribution", scope));
      expect(distribution).toEqual(await rest(client, "analytics/distribution", scope));
    }
    const platform = data(await query(operator, "analytics.usage", window));
    expect(seriesOf(platform)).toEqual({
      [world.days[0]]: [2, 2, 3],
      [world.days[1]]: [2, 2, 1],
      [world.days[2]]: [0, 1, 1],
    });
    const leaf = data(await query(world.leafToken, "analytics.distribution", {}));
    expect(leaf.topCompaniesByActivations).toEqual([
      { companyId: world.alphaLeaf, companyName: "Alpha Leaf", count: 1 },
    ]);
    expect(data(await query(operator, "analytics.usage", {})).heartbeats).toHaveLength(31);
  });

  it("answers the spec's codes for bad windows and foreign companies", async () => {
    const inverted = await query(operator, "analytics.usage", {
      from: "2026-02-02T00:00:00Z",
      to: "2026-02-01T00:00:00Z",
    });
    expect(inverted.status).toBe(400);
    expect(appCode(inverted)).toMatchObject({ code: "BAD_REQUEST", appCode: "analytics.invalid_range" });
    const long = await query(operator, "analytics.usage", { from: "2025-01-01", to: "2026-01-03" });
    expect(appCode(long)).toMatchObject({ code: "BAD_REQUEST", appCode: "analytics.range_too_large" });
    for (const path of ["analytics.usage", "analytics.distribution"]) {
      const res = await query(world.subViewer.client, path, { companyId: world.beta });
      expect(res.status).toBe(403);
      expect(appCode(res)).toMatchObject({ code: "FORBIDDEN", appCode: "auth.company_out_of_scope" });
    }
    const malformed = await query(operator, "analytics.distribution", { companyId: "nope" });
    expect(appCode(malformed)).toMatchObject({ code: "BAD_REQUEST", appCode: "request.invalid" });
    expect((await query(await app.client(), "analytics.usage", {})).status).toBe(401);
  });
});
