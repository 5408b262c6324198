import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { BodyOf, RequestOf } from "../testing/api-client.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createTemplate } from "../testing/licensing.ts";
import { createMember, seedCompany, createTokenClient, type SeededCompany } from "../testing/fixtures.ts";

const url = "/api/v1/panel/licenses";
let app: TestApp;
let operator: TestClient;
let parent: SeededCompany;
let child: SeededCompany;
let stranger: SeededCompany;
let templateA: { id: string };
let templateB: { id: string };
const issued: Record<string, { id: string; licenseKey: string }> = {};

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  parent = await seedCompany(app, { name: "Acme Holding" });
  child = await seedCompany(app, { parent, name: "Acme Robotics" });
  stranger = await seedCompany(app, { name: "Globex" });
  templateA = await createTemplate(operator);
  templateB = await createTemplate(operator);
  const issue = async (
    name: string,
    companyId: string,
    templateId: string,
    extra: Partial<BodyOf<typeof operations.licenses.issue>> = {},
  ) => {
    app.clock.advance(1000);
    const res = await operator.api.licenses.issue({ body: { companyId, templateId, ...extra } });
    issued[name] = res.body;
  };
  await issue("parentA", parent.id, templateA.id);
  await issue("childA", child.id, templateA.id);
  await issue("childB", child.id, templateB.id, {
    expiresAt: new Date(app.clock.now().getTime() + 3_600_000).toISOString(),
  });
  await issue("strangerA", stranger.id, templateA.id);
  await issue("revoked", parent.id, templateB.id);
  await operator.api.licenses.revoke({ params: { id: issued.revoked!.id }, body: { reason: "refund" } });
  await issue("suspended", child.id, templateA.id);
  await operator.api.licenses.suspend({ params: { id: issued.suspended!.id } });
});
afterAll(() => app.close());

const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((l) => l.id);
const named = (...names: string[]) => names.map((n) => issued[n]!.id);
type SearchQuery = RequestOf<typeof operations.licenses.search>["query"];
const search = (query?: SearchQuery, client = operator) => client.api.licenses.search({ query });

describe("GET /panel/licenses", () => {
  it("lists everything for an operator, newest first, with paging defaults", async () => {
    const res = await search();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 6, page: 1, pageSize: 50 });
    expect(ids(res)).toEqual(named("suspended", "revoked", "strangerA", "childB", "childA", "parentA"));
  });

  it("pages with page and pageSize, up to 200", async () => {
    const second = await search({ page: 2, pageSize: 4 });
    expect(second.body).toMatchObject({ total: 6, page: 2, pageSize: 4 });
    expect(ids(second)).toEqual(named("childA", "parentA"));
    expect((await search({ page: 9 })).body.items).toEqual([]);
    expect((await search({ pageSize: 200 })).status).toBe(200);
    // Queries the schema refuses, sent as they are.
    for (const bad of ["pageSize=201", "pageSize=0", "page=0", "page=x"]) {
      expect((await operator.get(`${url}?${bad}`)).error, bad).toEqual(errorBody("request.invalid", 400));
    }
  });

  it("filters by company, template and status (case-insensitive), combined", async () => {
    expect(ids(await search({ companyId: child.id }))).toEqual(named("suspended", "childB", "childA"));
    expect(ids(await search({ templateId: templateB.id }))).toEqual(named("revoked", "childB"));
    expect(ids(await search({ status: "Revoked" }))).toEqual(named("revoked"));
    expect(ids(await search({ status: "suspended" }))).toEqual(named("suspended"));
    expect(ids(await search({ companyId: child.id, templateId: templateA.id, status: "Active" }))).toEqual(
      named("childA"),
    );
  });

  it("treats an Active license past its expiry as Expired", async () => {
    app.clock.advance(2 * 3_600_000);
    expect(ids(await search({ status: "Expired" }))).toEqual(named("childB"));
    expect(ids(await search({ status: "Active" }))).not.toContain(issued.childB!.id);
    expect((await operator.api.licenses.get({ params: { id: issued.childB!.id } })).body.status).toBe(
      "Expired",
    );
  });

  it("refuses an unknown status with license.invalid_status", async () => {
    expect((await search({ status: "Deleted" })).error).toEqual(errorBody("license.invalid_status", 400));
  });

  it("searches by license key, key prefix (any case) and company name", async () => {
    const key = issued.childA!.licenseKey;
    expect(ids(await search({ search: key }))).toEqual(named("childA"));
    const prefix = key.slice(0, 12).toLowerCase();
    expect(ids(await search({ search: prefix }))).toContain(issued.childA!.id);
    expect(ids(await search({ search: "robot" }))).toEqual(named("suspended", "childB", "childA"));
    expect(ids(await search({ search: "acme", templateId: templateB.id }))).toEqual(
      named("revoked", "childB"),
    );
    expect((await search({ search: "%" })).body.items).toEqual([]);
  });

  it("shows a member only their subtree and refuses a company filter outside it", async () => {
    const childAdmin = (await createTokenClient(app, child)).client;
    expect(ids(await search({}, childAdmin))).toEqual(named("suspended", "childB", "childA"));
    const viewer = (await createMember(app, { companyId: parent.id, role: "viewer" })).client;
    expect((await search({}, viewer)).body.total).toBe(5);
    const outside = await search({ companyId: parent.id }, childAdmin);
    expect(outside.error).toEqual(errorBody("auth.company_out_of_scope", 403));
    expect((await search({ companyId: stranger.id }, childAdmin)).error).toEqual(
      errorBody("auth.company_out_of_scope", 403),
    );
    expect((await search({ search: "Globex" }, childAdmin)).body.items).toEqual([]);
    expect((await search({}, await app.client())).status).toBe(401);
  });
});
