import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { seedCompany, createTokenClient } from "../testing/fixtures.ts";

let app: TestApp;
let operator: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
});
afterAll(() => app.close());

const call = (client: TestClient, path: string, input?: unknown) =>
  client.post(`/trpc/${path}`, input === undefined ? undefined : { json: input });
const query = (client: TestClient, path: string, input: unknown) =>
  client.get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);

describe("/trpc templates", () => {
  it("runs the whole template lifecycle with the same results as REST", async () => {
    const created = await call(operator, "templates.create", {
      name: "Via tRPC",
      productCode: "TRPC-1",
      defaultOfflineDays: 99,
      defaultValidityDays: 30,
    });
    expect(created.status).toBe(200);
    const template = created.body.result.data.json;
    expect(template).toMatchObject({ productCode: "TRPC-1", defaultOfflineDays: 30, status: "Active" });

    const updated = await call(operator, "templates.update", { id: template.id, name: "Renamed" });
    expect(updated.body.result.data.json.name).toBe("Renamed");

    const version = await call(operator, "templates.versions.create", {
      id: template.id,
      configSchema: '{"type":"object"}',
      changelog: "v1",
    });
    expect(version.body.result.data.json).toMatchObject({ version: 1, templateId: template.id });
    const versions = await query(operator, "templates.versions.list", { id: template.id });
    expect(versions.body.result.data.json).toHaveLength(1);

    const rotated = await call(operator, "templates.signingKeys.rotate", { id: template.id });
    const keys = await query(operator, "templates.signingKeys.list", { id: template.id });
    const inactive = keys.body.result.data.json.find((k: { status: string }) => k.status === "Inactive");
    expect(keys.body.result.data.json[0].id).toBe(rotated.body.result.data.json.id);
    const retired = await call(operator, "templates.signingKeys.retire", {
      id: template.id,
      keyId: inactive.id,
    });
    expect(retired.status).toBe(200);

    await call(operator, "templates.archive", { id: template.id });
    const rest = await operator.get(`/api/v1/panel/templates/${template.id}`);
    expect(rest.body).toMatchObject({
      name: "Renamed",
      status: "Archived",
      currentVersionId: version.body.result.data.json.id,
    });
    const list = await query(operator, "templates.list", { status: "Archived" });
    expect(list.body.result.data.json.map((t: { id: string }) => t.id)).toEqual([template.id]);
  });

  it("maps domain errors to tRPC codes with the spec's code alongside", async () => {
    const admin = (await createTokenClient(app, await seedCompany(app))).client;
    const forbidden = await call(admin, "templates.create", {
      name: "x",
      productCode: "NOPE",
      defaultOfflineDays: 1,
      defaultValidityDays: 1,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.json.data).toMatchObject({
      code: "FORBIDDEN",
      appCode: "auth.operator_required",
    });
    const missing = await query(admin, "templates.get", { id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.status).toBe(404);
    expect(missing.body.error.json.data.appCode).toBe("template.not_found");
    const template = (
      await call(operator, "templates.create", {
        name: "x",
        productCode: "TRPC-2",
        defaultOfflineDays: 1,
        defaultValidityDays: 1,
      })
    ).body.result.data.json;
    const badSchema = await call(operator, "templates.versions.create", {
      id: template.id,
      configSchema: "{oops",
    });
    expect(badSchema.status).toBe(400);
    expect(badSchema.body.error.json.data.appCode).toBe("template.invalid_config_schema");
    expect(badSchema.body.error.json.message).toContain("line 1, column 2");
  });
});
