import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createTemplate, verifyWithJose } from "../testing/licensing.ts";
import { seedCompany, createTokenClient } from "../testing/fixtures.ts";

let app: TestApp;
let operator: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
});
afterAll(() => app.close());

const call = async (client: TestClient, path: string, input: unknown) =>
  (await client.post(`/trpc/${path}`, { json: input })).body;
const query = async (client: TestClient, path: string, input: unknown) =>
  (await client.get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`)).body;

describe("/trpc licenses", () => {
  it("issues, searches, suspends, rebinds, transfers and revokes through the same core as REST", async () => {
    const company = await seedCompany(app);
    const target = await seedCompany(app, { parent: company });
    const template = await createTemplate(operator);
    const issued = (
      await call(operator, "licenses.issue", { companyId: company.id, templateId: template.id })
    ).result.data.json;
    await verifyWithJose(issued.token, issued.publicKey);

    const page = (await query(operator, "licenses.search", { companyId: company.id })).result.data.json;
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 50 });
    expect((await call(operator, "licenses.suspend", { id: issued.id })).result.data.json.status).toBe(
      "Suspended",
    );
    expect((await call(operator, "licenses.resume", { id: issued.id })).result.data.json.status).toBe(
      "Active",
    );
    const rebound = (await call(operator, "licenses.rebind", { id: issued.id, hwFingerprint: "m" })).result
      .data.json;
    expect(rebound).toMatchObject({ hwBinding: "fixed", currentVersion: 2 });
    const moved = (await call(operator, "licenses.transfer", { id: issued.id, newCompanyId: target.id }))
      .result.data.json;
    expect(moved).toMatchObject({ companyId: target.id, currentVersion: 3 });
    const file = (await query(operator, "licenses.file", { id: issued.id })).result.data.json;
    expect(file.token).toBe(moved.token);
    await call(operator, "licenses.revoke", { id: issued.id, reason: "done" });
    const rest = await operator.get(`/api/v1/panel/licenses/${issued.id}`);
    expect(rest.body).toMatchObject({ status: "Revoked", revocationReason: "done", companyId: target.id });

    const bulk = (
      await call(operator, "licenses.bulkIssue", {
        templateId: template.id,
        items: [{ companyId: company.id }],
      })
    ).result.data.json;
    expect(bulk).toMatchObject({ requested: 1, succeeded: 1 });
  });

  it("reports the spec's codes", async () => {
    const outsider = (await createTokenClient(app, await seedCompany(app))).client;
    const missing = await query(outsider, "licenses.get", { id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.error.json.data).toMatchObject({ code: "NOT_FOUND", appCode: "license.not_found" });
    const badStatus = await query(outsider, "licenses.search", { status: "Gone" });
    expect(badStatus.error.json.data.appCode).toBe("license.invalid_status");
  });
});
