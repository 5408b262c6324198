import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, trpcCaller, type TestApp, type TestClient } from "../testing/index.ts";
import { addVersion, createTemplate } from "../testing/licensing.ts";
import { createTokenClient, seedCompany } from "../testing/fixtures.ts";

let app: TestApp;
let operator: TestClient;
let admin: { client: TestClient; secret: string };

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  admin = await createTokenClient(app, await seedCompany(app));
});
afterAll(() => app.close());

const schema = {
  type: "object",
  properties: {
    features: { type: "array", items: { $ref: "#/$defs/feature" } },
    limits: {
      type: "object",
      properties: { maxSeats: { type: "integer", minimum: 1 } },
      required: ["maxSeats"],
    },
  },
  required: ["features", "limits"],
  $defs: { feature: { enum: ["export", "sync"] } },
};
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
const typesOf = (id: string, version: number | string, client = admin.client) =>
  client.get(`/api/v1/panel/templates/${id}/versions/${version}/types`);

describe("GET /panel/templates/{id}/versions/{version}/types", () => {
  it("generates the version's types, named after the product, for any authenticated user, on REST and tRPC", async () => {
    const template = await createTemplate(operator, { productCode: "pro-desktop.v2" });
    await addVersion(operator, template.id, { configSchema: "{}" });
    await addVersion(operator, template.id, { configSchema: JSON.stringify(schema) });
    const res = await admin.client.api.templates.versions.types({ params: { id: template.id, version: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      templateId: template.id,
      version: 2,
      typeName: "ProDesktopV2Config",
      featureTypeName: "ProDesktopV2Feature",
      fileName: "pro-desktop-v2-config.ts",
      source: expect.stringContaining("export interface ProDesktopV2Config {"),
    });
    expect(res.body.source).toContain("(pro-desktop.v2, template version 2)");
    expect(res.body.source).toContain('export type ProDesktopV2Feature = "export" | "sync";');
    expect(res.body.source).toMatch(/limits: \{\n\s+maxSeats: number;\n\s+\};/);

    // Version 1 (an empty schema) lists no features.
    const first = await typesOf(template.id, 1);
    expect(first.body).toMatchObject({ version: 1, featureTypeName: null });

    const viaTrpc = await trpcCaller(app.deps, { bearer: admin.secret })
      .call()
      .templates.versions.types({ id: template.id, version: 2 });
    expect(viaTrpc).toEqual(res.body);
  });

  it("answers 404 for an unknown template or version, 400 for a version that is no positive integer", async () => {
    const template = await createTemplate(operator);
    await addVersion(operator, template.id, { configSchema: "{}" });
    expect((await typesOf(template.id, 2)).error).toEqual(errorBody("template.version_not_found", 404));
    expect((await typesOf("00000000-0000-4000-8000-000000000000", 1)).error).toEqual(
      errorBody("template.not_found", 404),
    );
    for (const version of ["0", "-1", "1.5", "one", "99999999999"]) {
      expect((await typesOf(template.id, version)).error, version).toEqual(errorBody("request.invalid", 400));
    }
    expect(
      (await (await app.client()).get(`/api/v1/panel/templates/${template.id}/versions/1/types`)).error,
    ).toEqual(errorBody("auth.unauthenticated", 401));
  });

  it("answers 400 with the reason for a schema the generator cannot follow, and fetches nothing", async () => {
    const template = await createTemplate(operator);
    // Valid for the server's validator (the $id is declared inside), but json-schema-to-typescript would
    // resolve the reference over the network: it is told not to.
    await addVersion(operator, template.id, {
      configSchema: JSON.stringify({
        type: "object",
        properties: { seat: { $ref: "https://schemas.example.com/seat.json" } },
        $defs: { seat: { $id: "https://schemas.example.com/seat.json", type: "integer" } },
      }),
    });
    const res = await typesOf(template.id, 1);
    expect(res.error).toEqual(errorBody("template.invalid_config_schema", 400));
    expect(res.error.message).toBe(
      "Version 1: $ref https://schemas.example.com/seat.json at /properties/seat points outside the schema: " +
        "only references inside it (#/…) are followed",
    );
  });
});
