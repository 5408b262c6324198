import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, trpcError, type TestApp, type TestClient } from "../testing/index.ts";
import { createTemplate, verifyWithJose } from "../testing/licensing.ts";
import { seedCompany, createTokenClient } from "../testing/fixtures.ts";

let app: TestApp;
let operator: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
});
afterAll(() => app.close());

describe("/trpc licenses", () => {
  it("issues, searches, suspends, rebinds, transfers and revokes through the same core as REST", async () => {
    const licenses = operator.trpc.licenses;
    const company = await seedCompany(app);
    const target = await seedCompany(app, { parent: company });
    const template = await createTemplate(operator);
    const issued = await licenses.issue.mutate({ companyId: company.id, templateId: template.id });
    await verifyWithJose(issued.token, issued.publicKey);

    const page = await licenses.search.query({ companyId: company.id });
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 50 });
    expect((await licenses.suspend.mutate({ id: issued.id })).status).toBe("Suspended");
    expect((await licenses.resume.mutate({ id: issued.id })).status).toBe("Active");
    const rebound = await licenses.rebind.mutate({ id: issued.id, hwFingerprint: "m" });
    expect(rebound).toMatchObject({ hwBinding: "fixed", currentVersion: 2 });
    const moved = await licenses.transfer.mutate({ id: issued.id, newCompanyId: target.id });
    expect(moved).toMatchObject({ companyId: target.id, currentVersion: 3 });
    const file = await licenses.file.query({ id: issued.id });
    expect(file.token).toBe(moved.token);
    await licenses.revoke.mutate({ id: issued.id, reason: "done" });
    const rest = await operator.api.licenses.get({ params: { id: issued.id } });
    expect(rest.body).toMatchObject({ status: "Revoked", revocationReason: "done", companyId: target.id });

    const bulk = await licenses.bulkIssue.mutate({
      templateId: template.id,
      items: [{ companyId: company.id }],
    });
    expect(bulk).toMatchObject({ requested: 1, succeeded: 1 });
  });

  it("reports the spec's codes", async () => {
    const outsider = (await createTokenClient(app, await seedCompany(app))).client.trpc;
    const missing = await trpcError(
      outsider.licenses.get.query({ id: "00000000-0000-4000-8000-000000000000" }),
    );
    expect(missing.data).toMatchObject({ code: "NOT_FOUND", appCode: "license.not_found" });
    const badStatus = await trpcError(outsider.licenses.search.query({ status: "Gone" }));
    expect(badStatus.data.appCode).toBe("license.invalid_status");
  });
});
