import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createTemplate as createSharedTemplate } from "../testing/licensing.ts";
import { seedCompany, createTokenClient } from "../testing/fixtures.ts";

const base = "/api/v1/panel/templates";
let app: TestApp;
let operator: TestClient;
let admin: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  admin = (await createTokenClient(app, await seedCompany(app))).client;
});
afterAll(() => app.close());

const createTemplate = () => createSharedTemplate(operator, { name: "Versioned" });

const schema = JSON.stringify({
  type: "object",
  properties: {
    features: { type: "array", items: { type: "string" } },
    limits: { type: "object", properties: { maxSeats: { type: "integer", minimum: 1 } } },
  },
  required: ["features"],
});
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });

describe("POST /panel/templates/{id}/versions", () => {
  it("creates version 1, 2, … each signed by the Active key, and makes each current at once", async () => {
    const template = await createTemplate();
    const [key] = (await operator.get(`${base}/${template.id}/signing-keys`)).body;
    const first = await operator.post(`${base}/${template.id}/versions`, {
      configSchema: schema,
      defaults: '{"features": ["basic"]}',
      changelog: "First",
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      templateId: template.id,
      version: 1,
      configSchema: schema,
      defaults: '{"features": ["basic"]}',
      signingKeyId: key.id,
      changelog: "First",
      createdAt: app.clock.now().toISOString(),
    });
    expect((await operator.get(`${base}/${template.id}`)).body.currentVersionId).toBe(first.body.id);

    const second = await operator.post(`${base}/${template.id}/versions`, { configSchema: "{}" });
    expect(second.body).toMatchObject({ version: 2, defaults: "{}", changelog: null });
    expect((await operator.get(`${base}/${template.id}`)).body.currentVersionId).toBe(second.body.id);

    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, template.id));
    expect(audit.map((a) => a.action)).toEqual([
      "template.created",
      "template.version_created",
      "template.version_created",
    ]);
  });

  it("numbers versions without gaps or duplicates when created concurrently", async () => {
    const template = await createTemplate();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        operator.post(`${base}/${template.id}/versions`, { configSchema: "{}" }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(results.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const current = (await operator.get(`${base}/${template.id}`)).body.currentVersionId;
    expect(results.find((r) => r.body.version === 6)!.body.id).toBe(current);
  });

  it("says where configSchema stops being JSON", async () => {
    const template = await createTemplate();
    const url = `${base}/${template.id}/versions`;
    const trailingComma = await operator.post(url, { configSchema: '{"type": "object",}' });
    expect(trailingComma.body).toEqual(errorBody("template.invalid_config_schema", 400));
    expect(trailingComma.body.message).toMatch(
      /configSchema is not valid JSON: .* at line 1, column 19 \(offset 18\)/,
    );
    const thirdLine = await operator.post(url, { configSchema: '{\n  "type": "object",\n  "x": tru\n}' });
    expect(thirdLine.body.message).toContain('unexpected character "t" at line 3, column 8');
    const truncated = await operator.post(url, { configSchema: '{"type": ' });
    expect(truncated.body.message).toMatch(/not valid JSON: .*offset 9/);
    const empty = await operator.post(url, { configSchema: "" });
    expect(empty.body).toEqual(errorBody("template.invalid_config_schema", 400));
  });

  it.each([
    ["an unknown type", { type: "objekt" }, "/type"],
    ["a negative minLength", { properties: { name: { type: "string", minLength: -1 } } }, "minLength"],
    ["required that is not an array", { required: "features" }, "/required"],
    ["an unresolvable $ref", { $ref: "https://example.com/elsewhere.json" }, "elsewhere.json"],
  ])("refuses a configSchema with %s as no valid JSON Schema", async (_label, body, mention) => {
    const template = await createTemplate();
    const res = await operator.post(`${base}/${template.id}/versions`, {
      configSchema: JSON.stringify(body),
    });
    expect(res.body).toEqual(errorBody("template.invalid_config_schema", 400));
    expect(res.body.message).toContain(mention);
  });

  it("refuses JSON that is no schema at all: a number, a string, an array, null", async () => {
    const template = await createTemplate();
    for (const configSchema of ["5", '"schema"', "[]", "null"]) {
      const res = await operator.post(`${base}/${template.id}/versions`, { configSchema });
      expect(res.body, configSchema).toEqual(errorBody("template.invalid_config_schema", 400));
    }
  });

  it("accepts draft 2020-12 features and formats", async () => {
    const template = await createTemplate();
    const res = await operator.post(`${base}/${template.id}/versions`, {
      configSchema: JSON.stringify({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $defs: { seat: { type: "integer", minimum: 1 } },
        type: "object",
        properties: { contact: { type: "string", format: "email" }, seats: { $ref: "#/$defs/seat" } },
        prefixItems: [{ type: "string" }],
        unevaluatedProperties: true,
      }),
    });
    expect(res.status).toBe(201);
  });

  it("requires defaults to be a JSON object and says where it breaks", async () => {
    const template = await createTemplate();
    const url = `${base}/${template.id}/versions`;
    const broken = await operator.post(url, { configSchema: "{}", defaults: '{"features": [}' });
    expect(broken.body).toEqual(errorBody("template.invalid_defaults", 400));
    expect(broken.body.message).toMatch(/defaults is not valid JSON: .*line 1, column 15 \(offset 14\)/);
    for (const defaults of ["[]", "3", '"x"', "null"]) {
      const res = await operator.post(url, { configSchema: "{}", defaults });
      expect(res.body, defaults).toEqual(errorBody("template.invalid_defaults", 400));
    }
    expect((await operator.get(url)).body).toEqual([]);
  });

  it("refuses wrong types and too-long strings as request.invalid", async () => {
    const template = await createTemplate();
    const url = `${base}/${template.id}/versions`;
    for (const body of [
      {},
      { configSchema: { type: "object" } },
      { configSchema: "{}", defaults: { a: 1 } },
      { configSchema: "{}", changelog: 5 },
      { configSchema: " ".repeat(256 * 1024 + 1) },
      { configSchema: "{}", changelog: "c".repeat(10_001) },
    ]) {
      const res = await operator.post(url, body);
      expect(res.body, JSON.stringify(body).slice(0, 60)).toEqual(errorBody("request.invalid", 400));
    }
  });

  it("answers 404 for an unknown template, 409 for an archived one, 403 for a non-operator", async () => {
    const unknown = await operator.post(`${base}/00000000-0000-4000-8000-000000000000/versions`, {
      configSchema: "{}",
    });
    expect(unknown.body).toEqual(errorBody("template.not_found", 404));
    const template = await createTemplate();
    const forbidden = await admin.post(`${base}/${template.id}/versions`, { configSchema: "{}" });
    expect(forbidden.body).toEqual(errorBody("auth.operator_required", 403));
    await operator.request("DELETE", `${base}/${template.id}`);
    const archived = await operator.post(`${base}/${template.id}/versions`, { configSchema: "{}" });
    expect(archived.body).toEqual(errorBody("template.archived", 409));
  });
});

describe("GET /panel/templates/{id}/versions", () => {
  it("lists versions oldest first for any authenticated user; 404 for an unknown template", async () => {
    const template = await createTemplate();
    for (const changelog of ["one", "two", "three"]) {
      await operator.post(`${base}/${template.id}/versions`, { configSchema: "{}", changelog });
    }
    const res = await admin.get(`${base}/${template.id}/versions`);
    expect(res.status).toBe(200);
    expect(res.body.map((v: { version: number; changelog: string }) => [v.version, v.changelog])).toEqual([
      [1, "one"],
      [2, "two"],
      [3, "three"],
    ]);
    const unknown = await admin.get(`${base}/00000000-0000-4000-8000-000000000000/versions`);
    expect(unknown.body).toEqual(errorBody("template.not_found", 404));
  });
});
