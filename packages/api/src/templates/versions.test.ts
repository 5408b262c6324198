import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "../testing/api-client.ts";
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
type VersionBody = BodyOf<typeof operations.templates.versions.create>;
const createVersion = (templateId: string, body: VersionBody, client = operator) =>
  client.api.templates.versions.create({ params: { id: templateId }, body });
/** A body the schema refuses, sent as it is. */
const createVersionUntyped = (templateId: string, body: Record<string, unknown>) =>
  operator.post(`${base}/${templateId}/versions`, body);
const currentVersionId = async (templateId: string) =>
  (await operator.api.templates.get({ params: { id: templateId } })).body.currentVersionId;

describe("POST /panel/templates/{id}/versions", () => {
  it("creates version 1, 2, … each signed by the Active key, and makes each current at once", async () => {
    const template = await createTemplate();
    const [key] = (await operator.api.templates.signingKeys.list({ params: { id: template.id } })).body;
    const first = await createVersion(template.id, {
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
      signingKeyId: key!.id,
      changelog: "First",
      createdAt: app.clock.now().toISOString(),
    });
    expect(await currentVersionId(template.id)).toBe(first.body.id);

    const second = await createVersion(template.id, { configSchema: "{}" });
    expect(second.body).toMatchObject({ version: 2, defaults: "{}", changelog: null });
    expect(await currentVersionId(template.id)).toBe(second.body.id);

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
      Array.from({ length: 6 }, () => createVersion(template.id, { configSchema: "{}" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(results.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const current = await currentVersionId(template.id);
    expect(results.find((r) => r.body.version === 6)!.body.id).toBe(current);
  });

  it("says where configSchema stops being JSON", async () => {
    const template = await createTemplate();
    const trailingComma = await createVersion(template.id, { configSchema: '{"type": "object",}' });
    expect(trailingComma.error).toEqual(errorBody("template.invalid_config_schema", 400));
    expect(trailingComma.error.message).toMatch(
      /configSchema is not valid JSON: .* at line 1, column 19 \(offset 18\)/,
    );
    const thirdLine = await createVersion(template.id, {
      configSchema: '{\n  "type": "object",\n  "x": tru\n}',
    });
    expect(thirdLine.error.message).toContain('unexpected character "t" at line 3, column 8');
    const truncated = await createVersion(template.id, { configSchema: '{"type": ' });
    expect(truncated.error.message).toMatch(/not valid JSON: .*offset 9/);
    const empty = await createVersion(template.id, { configSchema: "" });
    expect(empty.error).toEqual(errorBody("template.invalid_config_schema", 400));
  });

  it.each([
    ["an unknown type", { type: "objekt" }, "/type"],
    ["a negative minLength", { properties: { name: { type: "string", minLength: -1 } } }, "minLength"],
    ["required that is not an array", { required: "features" }, "/required"],
    ["an unresolvable $ref", { $ref: "https://example.com/elsewhere.json" }, "elsewhere.json"],
  ])("refuses a configSchema with %s as no valid JSON Schema", async (_label, body, mention) => {
    const template = await createTemplate();
    const res = await createVersion(template.id, { configSchema: JSON.stringify(body) });
    expect(res.error).toEqual(errorBody("template.invalid_config_schema", 400));
    expect(res.error.message).toContain(mention);
  });

  it("refuses JSON that is no schema at all: a number, a string, an array, null", async () => {
    const template = await createTemplate();
    for (const configSchema of ["5", '"schema"', "[]", "null"]) {
      const res = await createVersion(template.id, { configSchema });
      expect(res.error, configSchema).toEqual(errorBody("template.invalid_config_schema", 400));
    }
  });

  it("accepts draft 2020-12 features and formats", async () => {
    const template = await createTemplate();
    const res = await createVersion(template.id, {
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
    const broken = await createVersion(template.id, { configSchema: "{}", defaults: '{"features": [}' });
    expect(broken.error).toEqual(errorBody("template.invalid_defaults", 400));
    expect(broken.error.message).toMatch(/defaults is not valid JSON: .*line 1, column 15 \(offset 14\)/);
    for (const defaults of ["[]", "3", '"x"', "null"]) {
      const res = await createVersion(template.id, { configSchema: "{}", defaults });
      expect(res.error, defaults).toEqual(errorBody("template.invalid_defaults", 400));
    }
    expect((await operator.api.templates.versions.list({ params: { id: template.id } })).body).toEqual([]);
  });

  it("refuses wrong types and too-long strings as request.invalid", async () => {
    const template = await createTemplate();
    for (const body of [
      {},
      { configSchema: { type: "object" } },
      { configSchema: "{}", defaults: { a: 1 } },
      { configSchema: "{}", changelog: 5 },
      { configSchema: " ".repeat(256 * 1024 + 1) },
      { configSchema: "{}", changelog: "c".repeat(10_001) },
    ]) {
      const res = await createVersionUntyped(template.id, body);
      expect(res.error, JSON.stringify(body).slice(0, 60)).toEqual(errorBody("request.invalid", 400));
    }
  });

  it("answers 404 for an unknown template, 409 for an archived one, 403 for a non-operator", async () => {
    const unknown = await createVersion("00000000-0000-4000-8000-000000000000", { configSchema: "{}" });
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
    const template = await createTemplate();
    const forbidden = await createVersion(template.id, { configSchema: "{}" }, admin);
    expect(forbidden.error).toEqual(errorBody("auth.operator_required", 403));
    await operator.api.templates.archive({ params: { id: template.id } });
    const archived = await createVersion(template.id, { configSchema: "{}" });
    expect(archived.error).toEqual(errorBody("template.archived", 409));
  });
});

describe("GET /panel/templates/{id}/versions", () => {
  it("lists versions oldest first for any authenticated user; 404 for an unknown template", async () => {
    const template = await createTemplate();
    for (const changelog of ["one", "two", "three"]) {
      await createVersion(template.id, { configSchema: "{}", changelog });
    }
    const listVersions = (id: string) => admin.api.templates.versions.list({ params: { id } });
    const res = await listVersions(template.id);
    expect(res.status).toBe(200);
    expect(res.body.map((v) => [v.version, v.changelog])).toEqual([
      [1, "one"],
      [2, "two"],
      [3, "three"],
    ]);
    const unknown = await listVersions("00000000-0000-4000-8000-000000000000");
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
  });
});
