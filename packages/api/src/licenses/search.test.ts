import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  const issue = async (name: string, companyId: string, templateId: string, extra = {}) => {
    app.clock.advance(1000);
    const res = await operator.post(url, { companyId, templateId, ...extra });
    issued[name] = res.body;
  };
  await issue("parentA", parent.id, templateA.id);
  await issue("childA", child.id, templateA.id);
  await issue("childB", child.id, templateB.id, {
    expiresAt: new Date(app.clock.now().getTime() + 3_600_000).toISOString(),
  });
  await issue("strangerA", stranger.id, templateA.id);
  await issue("revoked", parent.id, templateB.id);
  await operator.post(`${url}/${issued.revoked!.id}/revoke`, { reason: "refund" });
  await issue("suspended", child.id, templateA.id);
  await operator.post(`${url}/${issued.suspended!.id}/suspend`);
});
afterAll(() => app.close());

const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((l) => l.id);
const named = (...names: string[]) => names.map((n) => issued[n]!.id);

describe("GET /panel/licenses", () => {
  it("lists everything for an operator, newest first, with paging defaults", async () => {
    const res = await operator.get(url);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 6, page: 1, pageSize: 50 });
    expect(ids(res)).toEqual(named("suspended", "revoked", "strangerA", "childB", "childA", "parentA"));
  });

  it("pages with page and pageSize, up to 200", async () => {
    const second = await operator.get(`${url}?page=2&pageSize=4`);
    expect(second.body).toMatchObject({ total: 6, page: 2, pageSize: 4 });
    expect(ids(second)).toEqual(named("childA", "parentA"));
    expect((await operator.get(`${url}?page=9`)).body.items).toEqual([]);
    expect((await operator.get(`${url}?pageSize=200`)).status).toBe(200);
    for (const bad of ["pageSize=201", "pageSize=0", "page=0", "page=x"]) {
      expect((await operator.get(`${url}?${bad}`)).body, bad).toEqual(errorBody("request.invalid", 400));
    }
  });

  it("filters by company, template and status (case-insensitive), combined", async () => {
    expect(ids(await operator.get(`${url}?companyId=${child.id}`))).toEqual(
      named("suspended", "childB", "childA"),
    );
    expect(ids(await operator.get(`${url}?templateId=${templateB.id}`))).toEqual(named("revoked", "childB"));
    expect(ids(await operator.get(`${url}?status=Revoked`))).toEqual(named("revoked"));
    expect(ids(await operator.get(`${url}?status=suspended`))).toEqual(named("suspended"));
    expect(
      ids(await operator.get(`${url}?companyId=${child.id}&templateId=${templateA.id}&status=Active`)),
    ).toEqual(named("childA"));
  });

  it("treats an Active license past its expiry as Expired", async () => {
    app.clock.advance(2 * 3_600_000);
    expect(ids(await operator.get(`${url}?status=Expired`))).toEqual(named("childB"));
    expect(ids(await operator.get(`${url}?status=Active`))).not.toContain(issued.childB!.id);
    expect((await operator.get(`${url}/${issued.childB!.id}`)).body.status).toBe("Expired");
  });

  it("refuses an unknown status with license.invalid_status", async () => {
    expect((await operator.get(`${url}?status=Deleted`)).body).toEqual(
      errorBody("license.invalid_status", 400),
    );
  });

  it("searches by license key, key prefix (any case) and company name", async () => {
    const key = issued.childA!.licenseKey;
    expect(ids(await operator.get(`${url}?search=${key}`))).toEqual(named("childA"));
    const prefix = key.slice(0, 12).toLowerCase();
    expect(ids(await operator.get(`${url}?search=${prefix}`))).toContain(issued.childA!.id);
    expect(ids(await operator.get(`${url}?search=robot`))).toEqual(named("suspended", "childB", "childA"));
    expect(ids(await operator.get(`${url}?search=acme&templateId=${templateB.id}`))).toEqual(
      named("revoked", "childB"),
    );
    expect((await operator.get(`${url}?search=%25`)).body.items).toEqual([]);
  });

  it("shows a member only their subtree and refuses a company filter outside it", async () => {
    const childAdmin = (await createTokenClient(app, child)).client;
    expect(ids(await childAdmin.get(url))).toEqual(named("suspended", "childB", "childA"));
    const viewer = (await createMember(app, { companyId: parent.id, role: "viewer" })).client;
    expect((await viewer.get(url)).body.total).toBe(5);
    const outside = await childAdmin.get(`${url}?companyId=${parent.id}`);
    expect(outside.body).toEqual(errorBody("auth.company_out_of_scope", 403));
    expect((await childAdmin.get(`${url}?companyId=${stranger.id}`)).body).toEqual(
      errorBody("auth.company_out_of_scope", 403),
    );
    expect((await childAdmin.get(`${url}?search=Globex`)).body.items).toEqual([]);
    expect((await (await app.client()).get(url)).status).toBe(401);
  });
});
