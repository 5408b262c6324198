import { DAY, HOUR, MINUTE } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueLicense, type IssuedLicense } from "../testing/client-api.ts";
import { createMember } from "../testing/fixtures.ts";
import type { operations } from "../catalogue.ts";
import { startTestApp, type RequestOf, type TestApp, type TestClient } from "../testing/index.ts";
import { buildUsageWorld, type UsageWorld } from "../testing/usage-scenario.ts";

let app: TestApp;
let operator: TestClient;
let world: UsageWorld;
let l6: IssuedLicense;
let l7: IssuedLicense;
let l8: IssuedLicense;
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  world = await buildUsageWorld(app, operator);
  // On top of the usage world: L6 expires in 10 days, L7 in an hour (then the clock passes it, with no
  // sweep: it is Expired only as callers see it), L8 is suspended.
  l6 = await issueLicense(
    operator,
    { companyId: world.gamma, templateId: world.t1.id },
    { expiresAt: new Date(app.clock.now().getTime() + 10 * DAY).toISOString() },
  );
  app.clock.advance(MINUTE);
  l7 = await issueLicense(
    operator,
    { companyId: world.gamma, templateId: world.t2.id },
    { expiresAt: new Date(app.clock.now().getTime() + HOUR).toISOString() },
  );
  app.clock.advance(MINUTE);
  l8 = await issueLicense(operator, { companyId: world.beta, templateId: world.t2.id });
  expect((await operator.api.licenses.suspend({ params: { id: l8.id } })).status).toBe(200);
  // T1's keys: one Active, one Inactive, one Retired; T2 keeps its one Active key.
  const keys = operator.api.templates.signingKeys;
  const t1 = { id: world.t1.id };
  const first = (await keys.list({ params: t1 })).body[0]!.id;
  await keys.rotate({ params: t1 });
  await keys.rotate({ params: t1 });
  expect((await keys.retire({ params: { ...t1, keyId: first } })).status).toBe(204);
  app.clock.advance(2 * HOUR);
});
afterAll(() => app.close());

const OPERATOR = "/api/v1/panel/operator";
type TenantQuery = NonNullable<RequestOf<typeof operations.operator.tenants>["query"]>;
type LicenseQuery = NonNullable<RequestOf<typeof operations.operator.licenses>["query"]>;

describe("operator console, as anyone but an operator", () => {
  it.each(["overview", "tenants", "licenses"] as const)(
    "GET /operator/%s answers 403 auth.operator_required",
    async (path) => {
      const owner = await createMember(app, { companyId: world.alpha, role: "owner" });
      for (const client of [owner.client, world.subViewer.client, world.leafToken, world.homeless.client]) {
        const res = await client.api.operator[path]();
        expect(res.status).toBe(403);
        expect(res.error).toEqual({
          code: "auth.operator_required",
          message: expect.any(String),
          status: 403,
        });
      }
      expect((await (await app.client()).api.operator[path]()).status).toBe(401);
    },
  );
});

describe("GET /operator/overview", () => {
  it("counts the whole platform", async () => {
    const res = await operator.api.operator.overview();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      totalCompanies: 5,
      rootCompanies: 3,
      // Active: L1, L2, L4, L5, L6; Suspended: L8; Revoked: L3; Expired: L7 (past expiry, not swept)
      licenses: { active: 5, suspended: 1, revoked: 1, expired: 1, total: 8 },
      trialLicenses: 1,
      // m1 and m3 of L1, m4 of L4 (m2 was deactivated)
      activeActivations: 3,
      // L6, and the trial L4 (14 days by default)
      licensesExpiringIn30Days: 2,
      templates: 2,
      signingKeys: { active: 2, inactive: 1, retired: 1, total: 4 },
      webhookEndpoints: 0,
      deliveryHealthLast24h: { pending: 0, failed: 0, success: 0 },
    });
  });
});

describe("GET /operator/tenants", () => {
  const tenants = (query: TenantQuery = {}) => operator.api.operator.tenants({ query });
  /** A query the schema refuses, sent as it is. */
  const tenantsUntyped = (query: string) => operator.get(`${OPERATOR}/tenants${query}`);

  it("lists root companies by name with their subtree's size", async () => {
    const res = await tenants();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          id: world.alpha,
          name: "Alpha",
          slug: "alpha",
          status: "Active",
          contactEmail: null,
          descendantCount: 2,
          licenseCount: 3,
          createdAt: expect.any(String),
        },
        expect.objectContaining({ id: world.beta, name: "Beta", descendantCount: 0, licenseCount: 3 }),
        expect.objectContaining({ id: world.gamma, name: "Gamma", descendantCount: 0, licenseCount: 2 }),
      ],
      total: 3,
      page: 1,
      pageSize: 50,
    });
  });

  it("searches name and slug in any case", async () => {
    const names = async (search: string) => (await tenants({ search })).body.items.map((t) => t.name);
    expect(await names("ALPH")).toEqual(["Alpha"]);
    expect(await names("beta-co")).toEqual(["Beta"]);
    expect(await names("a")).toEqual(["Alpha", "Beta", "Gamma"]);
    expect(await names("%")).toEqual([]);
    // Children are not tenants.
    expect(await names("Leaf")).toEqual([]);
  });

  it("pages", async () => {
    const second = await tenants({ page: 2, pageSize: 2 });
    expect(second.body).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.body.items.map((t) => t.id)).toEqual([world.gamma]);
    expect((await tenantsUntyped("?pageSize=201")).status).toBe(400);
    expect((await tenantsUntyped("?page=0")).status).toBe(400);
  });
});

describe("GET /operator/licenses", () => {
  const list = async (query: LicenseQuery = {}) => {
    const res = await operator.api.operator.licenses({ query });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const ids = async (query: LicenseQuery) => (await list(query)).items.map((item) => item.id);

  it("lists every license newest first with its company's name and template's product code", async () => {
    const page = await list();
    const all = world.licenses;
    expect(page.total).toBe(8);
    expect(page.items.map((item) => item.id)).toEqual(
      [l8, l7, l6, all.l5, all.l4, all.l3, all.l2, all.l1].map((l) => l.id),
    );
    const leaf = page.items.find((item) => item.id === all.l4.id);
    expect(leaf).toEqual({
      id: all.l4.id,
      licenseKey: all.l4.licenseKey,
      companyId: world.alphaLeaf,
      companyName: "Alpha Leaf",
      templateId: world.t2.id,
      productCode: world.t2.productCode,
      status: "Active",
      isTrial: true,
      issuedAt: `${world.days[1]}T01:00:00.000Z`,
      expiresAt: expect.any(String),
      activatedAt: `${world.days[1]}T01:00:00.000Z`,
      revokedAt: null,
    });
    expect(page.items.find((item) => item.id === all.l3.id)).toMatchObject({
      status: "Revoked",
      revokedAt: expect.any(String),
    });
    expect(page.items.find((item) => item.id === l7.id)).toMatchObject({ status: "Expired" });
  });

  it("filters by status (as callers see it, any case), template, company and trial", async () => {
    const all = world.licenses;
    expect(await ids({ status: "Expired" })).toEqual([l7.id]);
    expect(await ids({ status: "suspended" })).toEqual([l8.id]);
    expect((await list({ status: "Active" })).total).toBe(5);
    expect(await ids({ templateId: world.t2.id })).toEqual([l8.id, l7.id, all.l4.id, all.l3.id]);
    // The company's own licenses, not its children's (as GET /licenses).
    expect(await ids({ companyId: world.alpha })).toEqual([all.l1.id]);
    expect(await ids({ trial: "true" })).toEqual([all.l4.id]);
    expect((await list({ trial: "false" })).total).toBe(7);
    expect(await ids({ templateId: world.t1.id, status: "Active", trial: "false" })).toEqual(
      [l6, all.l5, all.l2, all.l1].map((l) => l.id),
    );
  });

  it("pages", async () => {
    const page = await list({ page: 2, pageSize: 3 });
    expect(page).toMatchObject({ total: 8, page: 2, pageSize: 3 });
    expect(page.items.map((item) => item.id)).toEqual([
      world.licenses.l5.id,
      world.licenses.l4.id,
      world.licenses.l3.id,
    ]);
  });

  it.each([
    ["?status=Lost", 400, "license.invalid_status"],
    ["?trial=maybe", 400, "request.invalid"],
    ["?templateId=nope", 400, "request.invalid"],
    ["?pageSize=0", 400, "request.invalid"],
    ["?companyId=00000000-0000-4000-8000-000000000000", 404, "company.not_found"],
  ])("answers %s with %i %s", async (query, status, code) => {
    // Sent as they are: most are queries the schema refuses.
    const res = await operator.get(`${OPERATOR}/licenses${query}`);
    expect(res.status).toBe(status);
    expect(res.error).toEqual({ code, message: expect.any(String), status });
  });
});
