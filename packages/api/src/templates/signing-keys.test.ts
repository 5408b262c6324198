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

const createTemplate = () => createSharedTemplate(operator, { name: "Keyed" });
const listKeys = (templateId: string, client = operator) =>
  client.api.templates.signingKeys.list({ params: { id: templateId } });
const keysOf = async (templateId: string, client = operator) => (await listKeys(templateId, client)).body;
const rotate = (templateId: string, client = operator) =>
  client.api.templates.signingKeys.rotate({ params: { id: templateId } });
const retire = (templateId: string, keyId: string, client = operator) =>
  client.api.templates.signingKeys.retire({ params: { id: templateId, keyId } });
const createVersion = (templateId: string) =>
  operator.api.templates.versions.create({ params: { id: templateId }, body: { configSchema: "{}" } });
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });

describe("POST /panel/templates/{id}/signing-keys/rotate", () => {
  it("returns a new Active key and turns the previous one Inactive, still listed and published", async () => {
    const template = await createTemplate();
    const [first] = await keysOf(template.id);
    app.clock.advance(60_000);
    const rotated = await rotate(template.id);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      id: expect.any(String),
      status: "Active",
      notBefore: app.clock.now().toISOString(),
      notAfter: null,
      createdAt: app.clock.now().toISOString(),
      publicKeyHex: expect.stringMatching(/^[0-9a-f]{64}$/),
      isRoot: false,
    });
    expect(rotated.body.publicKeyHex).not.toBe(first!.publicKeyHex);
    const keys = await keysOf(template.id, admin);
    expect(keys.map((k) => [k.id, k.status])).toEqual([
      [rotated.body.id, "Active"],
      [first!.id, "Inactive"],
    ]);
    expect(keys[1]).toMatchObject({
      publicKeyHex: first!.publicKeyHex,
      notAfter: app.clock.now().toISOString(),
    });
  });

  it("signs versions created afterwards with the new key", async () => {
    const template = await createTemplate();
    const before = await createVersion(template.id);
    const rotated = await rotate(template.id);
    const after = await createVersion(template.id);
    expect(after.body.signingKeyId).toBe(rotated.body.id);
    expect(before.body.signingKeyId).not.toBe(rotated.body.id);
  });

  it("keeps exactly one Active key under concurrent rotations", async () => {
    const template = await createTemplate();
    const results = await Promise.all(Array.from({ length: 5 }, () => rotate(template.id)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(200));
    const keys = await keysOf(template.id);
    expect(keys).toHaveLength(6);
    expect(keys.filter((k) => k.status === "Active")).toHaveLength(1);
  });

  it("refuses a second Active key at the database level", async () => {
    const template = await createTemplate();
    const [key] = await app.database.db
      .select()
      .from(tables.signingKeys)
      .where(eq(tables.signingKeys.templateId, template.id));
    const { id: _id, ...copy } = key!;
    await expect(app.database.db.insert(tables.signingKeys).values(copy)).rejects.toThrow();
  });

  it("records an audit row and works on an archived template too", async () => {
    const template = await createTemplate();
    await operator.api.templates.archive({ params: { id: template.id } });
    const rotated = await rotate(template.id);
    expect(rotated.status).toBe(200);
    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, template.id));
    expect(audit.find((a) => a.action === "signing_key.rotated")?.meta).toMatchObject({
      newKeyId: rotated.body.id,
    });
  });

  it("answers 404 for an unknown template, 400 for a malformed id, 403 for a non-operator", async () => {
    const unknown = await rotate("00000000-0000-4000-8000-000000000000");
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
    expect((await operator.post(`${base}/nope/signing-keys/rotate`)).error).toEqual(
      errorBody("request.invalid", 400),
    );
    const template = await createTemplate();
    const forbidden = await rotate(template.id, admin);
    expect(forbidden.error).toEqual(errorBody("auth.operator_required", 403));
    expect(await keysOf(template.id)).toHaveLength(1);
  });
});

describe("POST /panel/templates/{id}/signing-keys/{keyId}/retire", () => {
  it("retires an Inactive key with 204; retiring it again is a 409", async () => {
    const template = await createTemplate();
    const [old] = await keysOf(template.id);
    await rotate(template.id);
    const retired = await retire(template.id, old!.id);
    expect(retired.status).toBe(204);
    expect((await keysOf(template.id)).find((k) => k.id === old!.id)?.status).toBe("Retired");
    const again = await retire(template.id, old!.id);
    expect(again.error).toEqual(errorBody("signing_key.not_inactive", 409));
    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, template.id));
    expect(audit.filter((a) => a.action === "signing_key.retired")).toHaveLength(1);
  });

  it("refuses to retire the Active key", async () => {
    const template = await createTemplate();
    const [active] = await keysOf(template.id);
    const res = await retire(template.id, active!.id);
    expect(res.error).toEqual(errorBody("signing_key.not_inactive", 409));
    expect(res.error.message).toContain("rotate first");
    expect((await keysOf(template.id))[0]!.status).toBe("Active");
  });

  it("answers 404 for an unknown key or a key of another template, 403 for a non-operator", async () => {
    const template = await createTemplate();
    const other = await createTemplate();
    const [otherKey] = await keysOf(other.id);
    await rotate(other.id);
    const foreign = await retire(template.id, otherKey!.id);
    expect(foreign.error).toEqual(errorBody("signing_key.not_found", 404));
    const unknown = await retire(template.id, "00000000-0000-4000-8000-000000000000");
    expect(unknown.error).toEqual(errorBody("signing_key.not_found", 404));
    const forbidden = await retire(other.id, otherKey!.id, admin);
    expect(forbidden.error).toEqual(errorBody("auth.operator_required", 403));
  });
});

describe("GET /panel/templates/{id}/signing-keys", () => {
  it("answers 404 for an unknown template and 401 without credentials", async () => {
    const unknown = await listKeys("00000000-0000-4000-8000-000000000000", admin);
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
    const template = await createTemplate();
    expect((await listKeys(template.id, await app.client())).status).toBe(401);
  });
});
