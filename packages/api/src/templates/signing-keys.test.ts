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
const keysOf = async (templateId: string, client = operator) =>
  (await client.get(`${base}/${templateId}/signing-keys`)).body as Array<{
    id: string;
    status: string;
    notAfter: string | null;
    publicKeyHex: string;
  }>;
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });

describe("POST /panel/templates/{id}/signing-keys/rotate", () => {
  it("returns a new Active key and turns the previous one Inactive, still listed and published", async () => {
    const template = await createTemplate();
    const [first] = await keysOf(template.id);
    app.clock.advance(60_000);
    const rotated = await operator.post(`${base}/${template.id}/signing-keys/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      id: expect.any(String),
      status: "Active",
      notBefore: app.clock.now().toISOString(),
      notAfter: null,
      createdAt: app.clock.now().toISOString(),
      publicKeyHex: expect.stringMatching(/^[0-9a-f]{64}$/),
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
    const before = await operator.post(`${base}/${template.id}/versions`, { configSchema: "{}" });
    const rotated = await operator.post(`${base}/${template.id}/signing-keys/rotate`);
    const after = await operator.post(`${base}/${template.id}/versions`, { configSchema: "{}" });
    expect(after.body.signingKeyId).toBe(rotated.body.id);
    expect(before.body.signingKeyId).not.toBe(rotated.body.id);
  });

  it("keeps exactly one Active key under concurrent rotations", async () => {
    const template = await createTemplate();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => operator.post(`${base}/${template.id}/signing-keys/rotate`)),
    );
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
    await operator.request("DELETE", `${base}/${template.id}`);
    const rotated = await operator.post(`${base}/${template.id}/signing-keys/rotate`);
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
    const unknown = await operator.post(`${base}/00000000-0000-4000-8000-000000000000/signing-keys/rotate`);
    expect(unknown.body).toEqual(errorBody("template.not_found", 404));
    expect((await operator.post(`${base}/nope/signing-keys/rotate`)).body).toEqual(
      errorBody("request.invalid", 400),
    );
    const template = await createTemplate();
    const forbidden = await admin.post(`${base}/${template.id}/signing-keys/rotate`);
    expect(forbidden.body).toEqual(errorBody("auth.operator_required", 403));
    expect(await keysOf(template.id)).toHaveLength(1);
  });
});

describe("POST /panel/templates/{id}/signing-keys/{keyId}/retire", () => {
  it("retires an Inactive key with 204; retiring it again is a 409", async () => {
    const template = await createTemplate();
    const [old] = await keysOf(template.id);
    await operator.post(`${base}/${template.id}/signing-keys/rotate`);
    const retired = await operator.post(`${base}/${template.id}/signing-keys/${old!.id}/retire`);
    expect(retired.status).toBe(204);
    expect((await keysOf(template.id)).find((k) => k.id === old!.id)?.status).toBe("Retired");
    const again = await operator.post(`${base}/${template.id}/signing-keys/${old!.id}/retire`);
    expect(again.body).toEqual(errorBody("signing_key.not_inactive", 409));
    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, template.id));
    expect(audit.filter((a) => a.action === "signing_key.retired")).toHaveLength(1);
  });

  it("refuses to retire the Active key", async () => {
    const template = await createTemplate();
    const [active] = await keysOf(template.id);
    const res = await operator.post(`${base}/${template.id}/signing-keys/${active!.id}/retire`);
    expect(res.body).toEqual(errorBody("signing_key.not_inactive", 409));
    expect(res.body.message).toContain("rotate first");
    expect((await keysOf(template.id))[0]!.status).toBe("Active");
  });

  it("answers 404 for an unknown key or a key of another template, 403 for a non-operator", async () => {
    const template = await createTemplate();
    const other = await createTemplate();
    const [otherKey] = await keysOf(other.id);
    await operator.post(`${base}/${other.id}/signing-keys/rotate`);
    const foreign = await operator.post(`${base}/${template.id}/signing-keys/${otherKey!.id}/retire`);
    expect(foreign.body).toEqual(errorBody("signing_key.not_found", 404));
    const unknown = await operator.post(
      `${base}/${template.id}/signing-keys/00000000-0000-4000-8000-000000000000/retire`,
    );
    expect(unknown.body).toEqual(errorBody("signing_key.not_found", 404));
    const forbidden = await admin.post(`${base}/${other.id}/signing-keys/${otherKey!.id}/retire`);
    expect(forbidden.body).toEqual(errorBody("auth.operator_required", 403));
  });
});

describe("GET /panel/templates/{id}/signing-keys", () => {
  it("answers 404 for an unknown template and 401 without credentials", async () => {
    const unknown = await admin.get(`${base}/00000000-0000-4000-8000-000000000000/signing-keys`);
    expect(unknown.body).toEqual(errorBody("template.not_found", 404));
    const template = await createTemplate();
    expect((await (await app.client()).get(`${base}/${template.id}/signing-keys`)).status).toBe(401);
  });
});
