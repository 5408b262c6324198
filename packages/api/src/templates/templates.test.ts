import { sealedAt } from "@licensing/core";
import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "../testing/api-client.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createMember, seedCompany, createTokenClient } from "../testing/fixtures.ts";

const base = "/api/v1/panel/templates";
let app: TestApp;
let operator: TestClient;
let admin: TestClient;
let owner: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  const company = await seedCompany(app);
  admin = (await createTokenClient(app, company)).client;
  owner = (await createMember(app, { companyId: company.id, role: "owner" })).client;
});
afterAll(() => app.close());

type TemplateBody = BodyOf<typeof operations.templates.create>;
type UpdateBody = BodyOf<typeof operations.templates.update>;
let counter = 0;
const newTemplate = (overrides: Partial<TemplateBody> = {}): TemplateBody => ({
  name: "Desktop Pro",
  productCode: `PRO-${++counter}`,
  description: "The desktop product",
  defaultOfflineDays: 7,
  defaultValidityDays: 365,
  ...overrides,
});

const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
const create = (body: TemplateBody, client = operator) => client.api.templates.create({ body });
const getTemplate = (id: string, client = operator) => client.api.templates.get({ params: { id } });
const update = (id: string, body: UpdateBody, client = operator) =>
  client.api.templates.update({ params: { id }, body });
const archive = (id: string, client = operator) => client.api.templates.archive({ params: { id } });
const signingKeys = (id: string) => operator.api.templates.signingKeys.list({ params: { id } });
/** Requests the schema refuses, sent as they are. */
const createUntyped = (body: unknown) => operator.post(base, body);
const updateUntyped = (id: string, body: Record<string, unknown>) =>
  operator.request("PUT", `${base}/${id}`, body);

describe("POST /panel/templates", () => {
  it("creates an Active template with its first Active signing key, and audits it", async () => {
    const input = newTemplate();
    const res = await create(input);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "Desktop Pro",
      productCode: input.productCode,
      description: "The desktop product",
      defaultOfflineDays: 7,
      defaultValidityDays: 365,
      fingerprintMatch: "fuzzy",
      revocation: "graceful",
      maxNewDevicesPerWindow: null,
      newDeviceWindowDays: 30,
      seatModel: "nodeLocked",
      leaseSeconds: 900,
      maxBorrowDays: 0,
      status: "Active",
      currentVersionId: null,
      createdAt: app.clock.now().toISOString(),
    });
    const keys = await signingKeys(res.body.id);
    expect(keys.body).toEqual([
      {
        id: expect.any(String),
        status: "Active",
        notBefore: app.clock.now().toISOString(),
        notAfter: null,
        createdAt: app.clock.now().toISOString(),
        publicKeyHex: expect.stringMatching(/^[0-9a-f]{64}$/),
        isRoot: true,
      },
    ]);
    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, res.body.id));
    expect(audit).toMatchObject([{ action: "template.created", actorEmail: "root@example.com" }]);
  });

  it("stores the private key sealed, never in clear and never in a response or audit row", async () => {
    const res = await create(newTemplate());
    const [key] = await app.database.db
      .select()
      .from(tables.signingKeys)
      .where(eq(tables.signingKeys.templateId, res.body.id));
    expect(key!.privateKeySealed).toMatch(/^v2\./);
    const der = app.deps.secrets.open(
      key!.privateKeySealed,
      sealedAt(tables.signingKeys.privateKeySealed, key!.id),
    );
    const seedHex = der.subarray(-32).toString("hex");
    const seedB64 = der.subarray(-32).toString("base64url");
    const everything = JSON.stringify([
      res.body,
      (await signingKeys(res.body.id)).body,
      await app.database.db.select().from(tables.auditLog),
    ]);
    for (const secret of [seedHex, seedB64, key!.privateKeySealed]) expect(everything).not.toContain(secret);
  });

  it("clamps defaultOfflineDays into 1..30", async () => {
    const low = await create(newTemplate({ defaultOfflineDays: 0 }));
    const high = await create(newTemplate({ defaultOfflineDays: 90 }));
    const negative = await create(newTemplate({ defaultOfflineDays: -5 }));
    expect([
      low.body.defaultOfflineDays,
      high.body.defaultOfflineDays,
      negative.body.defaultOfflineDays,
    ]).toEqual([1, 30, 1]);
  });

  it("refuses a taken productCode, whatever its case, with 409", async () => {
    const first = await create(newTemplate({ productCode: "UNIQUE-CODE" }));
    expect(first.status).toBe(201);
    for (const productCode of ["UNIQUE-CODE", "unique-code"]) {
      const res = await create(newTemplate({ productCode }));
      expect(res.status).toBe(409);
      expect(res.error).toEqual(errorBody("template.product_code_taken", 409));
    }
  });

  it("gives one 201 and one 409 when the same productCode is created twice at once", async () => {
    const results = await Promise.all([
      create(newTemplate({ productCode: "RACE" })),
      create(newTemplate({ productCode: "RACE" })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it.each([
    ["a missing name", { name: undefined }],
    ["an empty name", { name: "  " }],
    ["a too-long name", { name: "x".repeat(201) }],
    ["a productCode with spaces", { productCode: "PRO 1" }],
    ["a too-long productCode", { productCode: "P".repeat(65) }],
    ["a non-integer defaultOfflineDays", { defaultOfflineDays: 1.5 }],
    ["a string defaultOfflineDays", { defaultOfflineDays: "7" }],
    ["a zero defaultValidityDays", { defaultValidityDays: 0 }],
    ["a missing defaultValidityDays", { defaultValidityDays: undefined }],
    ["a too-long description", { description: "d".repeat(2001) }],
  ])("refuses %s with 400 naming the field", async (_label, overrides) => {
    const res = await createUntyped({ ...newTemplate(), ...overrides });
    expect(res.status).toBe(400);
    expect(res.error).toEqual(errorBody("request.invalid", 400));
    expect(res.error.message).toContain(`body.${Object.keys(overrides)[0]}`);
  });

  it("refuses malformed JSON with 400", async () => {
    const res = await createUntyped('{"name": ');
    expect(res.error).toEqual(errorBody("request.malformed_json", 400));
  });

  it("is for operators only: an access token and a company owner get 403", async () => {
    for (const client of [admin, owner]) {
      const res = await create(newTemplate(), client);
      expect(res.status).toBe(403);
      expect(res.error).toEqual(errorBody("auth.operator_required", 403));
    }
    const anonymous = await app.client();
    expect((await create(newTemplate(), anonymous)).status).toBe(401);
  });
});

describe("GET /panel/templates and /panel/templates/{id}", () => {
  it("lets any authenticated user read the list and one template, and filters by status", async () => {
    const created = await create(newTemplate());
    const archived = await create(newTemplate());
    await archive(archived.body.id);
    for (const client of [operator, admin, owner]) {
      const list = await client.api.templates.list();
      expect(list.status).toBe(200);
      expect(list.body.map((t) => t.id)).toEqual(expect.arrayContaining([created.body.id, archived.body.id]));
      const one = await getTemplate(created.body.id, client);
      expect(one.body).toEqual(created.body);
    }
    const active = await admin.api.templates.list({ query: { status: "Active" } });
    expect(active.body.every((t) => t.status === "Active")).toBe(true);
    const onlyArchived = await admin.api.templates.list({ query: { status: "Archived" } });
    expect(onlyArchived.body.map((t) => t.id)).toContain(archived.body.id);
    expect((await admin.get(`${base}?status=Deleted`)).error).toEqual(errorBody("request.invalid", 400));
    expect((await (await app.client()).api.templates.list()).status).toBe(401);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const unknown = await getTemplate("00000000-0000-4000-8000-000000000000");
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
    const malformed = await operator.get(`${base}/not-a-uuid`);
    expect(malformed.error).toEqual(errorBody("request.invalid", 400));
    expect(malformed.error.message).toContain("path.id");
  });
});

describe("PUT /panel/templates/{id}", () => {
  it("updates the given fields only, clamps defaultOfflineDays and audits the change", async () => {
    const created = await create(newTemplate());
    const res = await update(created.body.id, { name: "Renamed", defaultOfflineDays: 45 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created.body, name: "Renamed", defaultOfflineDays: 30 });
    const cleared = await update(created.body.id, { description: null, defaultValidityDays: 30 });
    expect(cleared.body).toMatchObject({ name: "Renamed", description: null, defaultValidityDays: 30 });
    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, created.body.id));
    expect(audit.map((a) => a.action)).toEqual(["template.created", "template.updated", "template.updated"]);
  });

  it("refuses productCode and unknown fields, wrong types, unknown ids and non-operators", async () => {
    const created = await create(newTemplate());
    const id = created.body.id;
    const productCode = await updateUntyped(id, { productCode: "NEW" });
    expect(productCode.error).toEqual(errorBody("request.invalid", 400));
    expect((await updateUntyped(id, { name: 42 })).status).toBe(400);
    expect((await updateUntyped(id, { defaultValidityDays: -1 })).status).toBe(400);
    const unknown = await update("00000000-0000-4000-8000-000000000000", { name: "x" });
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
    expect((await update(id, { name: "x" }, admin)).error).toEqual(errorBody("auth.operator_required", 403));
  });

  it("refuses changes to an archived template with 409", async () => {
    const created = await create(newTemplate());
    await archive(created.body.id);
    const res = await update(created.body.id, { name: "x" });
    expect(res.error).toEqual(errorBody("template.archived", 409));
  });
});

describe("DELETE /panel/templates/{id}", () => {
  it("archives with 204, is idempotent, and audits once", async () => {
    const created = await create(newTemplate());
    const first = await archive(created.body.id);
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    expect((await archive(created.body.id)).status).toBe(204);
    expect((await getTemplate(created.body.id)).body.status).toBe("Archived");
    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, created.body.id));
    expect(audit.map((a) => a.action)).toEqual(["template.created", "template.archived"]);
  });

  it("answers 404 for an unknown template and 403 for a non-operator", async () => {
    const unknown = await archive("00000000-0000-4000-8000-000000000000");
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
    const created = await create(newTemplate());
    expect((await archive(created.body.id, owner)).status).toBe(403);
    expect((await getTemplate(created.body.id)).body.status).toBe("Active");
  });
});
