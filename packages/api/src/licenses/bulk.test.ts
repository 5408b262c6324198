import type { BulkIssueResponse } from "@licensing/contracts";
import { tables } from "@licensing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "../testing/api-client.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { addVersion, createTemplate, verifyWithJose } from "../testing/licensing.ts";
import {
  archiveSeededCompany,
  seedCompany,
  createTokenClient,
  type SeededCompany,
} from "../testing/fixtures.ts";

const url = "/api/v1/panel/licenses/bulk";
let app: TestApp;
let operator: TestClient;
let admin: TestClient;
let company: SeededCompany;
let template: { id: string };

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  company = await seedCompany(app);
  admin = (await createTokenClient(app, company)).client;
  template = await createTemplate(operator);
  await addVersion(operator, template.id, {
    configSchema: JSON.stringify({
      type: "object",
      properties: { limits: { type: "object", properties: { maxSeats: { type: "integer" } } } },
    }),
  });
});
afterAll(() => app.close());

const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
const licenseCount = async () => (await app.database.db.select().from(tables.licenses)).length;
const bulk = (
  body: BodyOf<typeof operations.licenses.bulkIssue>,
  client = admin,
  headers?: Record<string, string>,
) => client.api.licenses.bulkIssue({ body, ...(headers ? { headers } : {}) });
/** A request the types refuse, sent as it is. */
const bulkUntyped = (body: Record<string, unknown>) => admin.post(url, body);
const getLicense = async (id: string) => (await admin.api.licenses.get({ params: { id } })).body;

describe("POST /panel/licenses/bulk", () => {
  it("reports each failure kind in its row and stores the successes together", async () => {
    const child = await seedCompany(app, { parent: company });
    const archived = await seedCompany(app, { parent: company });
    await archiveSeededCompany(app, archived);
    const foreign = await seedCompany(app);
    const before = await licenseCount();
    const res = await bulk({
      templateId: template.id,
      config: '{"features":["batch"],"limits":{"maxSeats":5}}',
      isTrial: true,
      items: [
        { companyId: company.id },
        { companyId: foreign.id },
        { companyId: archived.id },
        { companyId: child.id, config: '{"features":["own"]' },
        { companyId: child.id, config: '{"features":["own"],"limits":{"maxSeats":"x"}}' },
        { companyId: child.id, config: '{"features":["own"],"limits":{"maxSeats":1}}' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ requested: 6, succeeded: 2, failed: 4 });
    const row = (i: number) => res.body.results[i]!;
    expect(row(0)).toEqual({
      companyId: company.id,
      licenseId: expect.any(String),
      licenseKey: expect.stringMatching(/^SVC-/),
      errorCode: null,
      errorMessage: null,
    });
    expect(row(1)).toEqual({
      companyId: foreign.id,
      licenseId: null,
      licenseKey: null,
      errorCode: "company.not_found",
      errorMessage: expect.any(String),
    });
    expect(row(2)).toMatchObject({ errorCode: "license.company_not_active", licenseId: null });
    expect(row(3)).toMatchObject({ errorCode: "license.invalid_config", licenseId: null });
    expect(row(4)).toMatchObject({ errorCode: "license.invalid_config" });
    expect(row(4).errorMessage).toContain("/limits/maxSeats");
    expect(row(5)).toMatchObject({ companyId: child.id, errorCode: null });
    expect(await licenseCount()).toBe(before + 2);

    const batchConfig = await getLicense(row(0).licenseId!);
    expect(JSON.parse(batchConfig.config)).toEqual({ features: ["batch"], limits: { maxSeats: 5 } });
    expect(batchConfig.isTrial).toBe(true);
    const ownConfig = await getLicense(row(5).licenseId!);
    expect(JSON.parse(ownConfig.config)).toEqual({ features: ["own"], limits: { maxSeats: 1 } });
    const events = await app.database.db.select().from(tables.outboxEvents);
    const issuedIds: unknown[] = [row(0).licenseId, row(5).licenseId];
    expect(events.filter((e) => issuedIds.includes(e.data.licenseId))).toHaveLength(2);
  });

  it("needs Admin per item: a viewer-only company fails in its row", async () => {
    const other = await seedCompany(app);
    const res = await bulk({ templateId: template.id, items: [{ companyId: other.id }] }, operator);
    expect(res.body).toMatchObject({ succeeded: 1, failed: 0 });
    const narrow = (await createTokenClient(app, await seedCompany(app, { parent: company }))).client;
    const mixed = await bulk({ templateId: template.id, items: [{ companyId: company.id }] }, narrow);
    expect(mixed.body.results[0]).toMatchObject({ errorCode: "company.not_found" });
  });

  it("issues 200 items, refuses 201 with license.bulk_too_large and none with license.bulk_empty", async () => {
    const items = Array.from({ length: 200 }, () => ({ companyId: company.id }));
    const full = await bulk({ templateId: template.id, items });
    expect(full.body).toMatchObject({ requested: 200, succeeded: 200, failed: 0 });
    expect(new Set(full.body.results.map((r) => r.licenseKey)).size).toBe(200);
    const first = full.body.results[0]!;
    const file = await admin.api.licenses.file({ params: { id: first.licenseId! } });
    const { token, publicKey } = file.body;
    expect((await verifyWithJose(token, publicKey)).claims.lid).toBe(first.licenseId);

    const tooMany = await bulk({ templateId: template.id, items: [...items, { companyId: company.id }] });
    expect(tooMany.error).toEqual(errorBody("license.bulk_too_large", 400));
    expect((await bulk({ templateId: template.id, items: [] })).error).toEqual(
      errorBody("license.bulk_empty", 400),
    );
  });

  it("looks the items' companies up together: failures deep in a full bulk stay in their rows", async () => {
    const child = await seedCompany(app, { parent: company });
    const foreign = await seedCompany(app);
    const archived = await seedCompany(app, { parent: company });
    await archiveSeededCompany(app, archived);
    const count = async (table: typeof tables.outboxEvents | typeof tables.auditLog) =>
      (await app.database.db.select().from(table)).length;
    const before = {
      licenses: await licenseCount(),
      events: await count(tables.outboxEvents),
      audit: await count(tables.auditLog),
    };
    const items: { companyId: string; config?: string }[] = Array.from({ length: 200 }, (_, i) => ({
      companyId: i % 2 ? company.id : child.id.toUpperCase(),
    }));
    items[60] = { companyId: foreign.id };
    items[99] = { companyId: archived.id };
    // Items with the same config text share its one check, its failure included.
    items[150] = { companyId: company.id, config: '{"limits":{"maxSeats":"x"}}' };
    items[151] = { companyId: child.id, config: '{"limits":{"maxSeats":"x"}}' };
    items[152] = { companyId: child.id, config: '{"limits":{"maxSeats":2}}' };
    items[153] = { companyId: company.id, config: '{"limits":{"maxSeats":2}}' };
    const res = await bulk({ templateId: template.id, items });
    expect(res.body).toMatchObject({ requested: 200, succeeded: 196, failed: 4 });
    const rows = res.body.results;
    expect(rows[60]).toMatchObject({
      companyId: foreign.id,
      errorCode: "company.not_found",
      licenseId: null,
    });
    expect(rows[99]).toMatchObject({ errorCode: "license.company_not_active", licenseId: null });
    expect(rows[150]).toMatchObject({ errorCode: "license.invalid_config", licenseId: null });
    expect(rows[151]).toEqual({ ...rows[150], companyId: child.id });
    expect(rows[150]!.errorMessage).toContain("/limits/maxSeats");
    for (const i of [152, 153]) {
      const own = await getLicense(rows[i]!.licenseId!);
      expect(JSON.parse(own.config)).toEqual({ features: [], limits: { maxSeats: 2 } });
    }
    expect(JSON.parse((await getLicense(rows[1]!.licenseId!)).config)).toEqual({ features: [], limits: {} });
    // An upper-case UUID names the same company; its row keeps the id as sent.
    expect(rows[0]).toMatchObject({ companyId: child.id.toUpperCase(), errorCode: null });
    expect((await getLicense(rows[0]!.licenseId!)).companyId).toBe(child.id);
    expect(await licenseCount()).toBe(before.licenses + 196);
    expect(await count(tables.outboxEvents)).toBe(before.events + 196);
    expect(await count(tables.auditLog)).toBe(before.audit + 196);
    const last = await admin.api.licenses.file({ params: { id: rows[199]!.licenseId! } });
    expect((await verifyWithJose(last.body.token, last.body.publicKey)).claims.lid).toBe(
      rows[199]!.licenseId,
    );

    // Every item failing writes nothing at all.
    const none = await bulk({
      templateId: template.id,
      items: [{ companyId: foreign.id }, { companyId: archived.id }, { companyId: foreign.id }],
    });
    expect(none.body).toMatchObject({ requested: 3, succeeded: 0, failed: 3 });
    expect(await licenseCount()).toBe(before.licenses + 196);
    expect(await count(tables.outboxEvents)).toBe(before.events + 196);
    expect(await count(tables.auditLog)).toBe(before.audit + 196);
  });

  it("fails a malformed item in its own row with a precise error, and issues the others", async () => {
    const child = await seedCompany(app, { parent: company });
    const events = async () => await app.database.db.select().from(tables.outboxEvents);
    const audit = async () => await app.database.db.select().from(tables.auditLog);
    const before = {
      licenses: await licenseCount(),
      events: (await events()).length,
      audit: (await audit()).length,
    };
    const items: unknown[] = [
      { companyId: company.id },
      { companyId: "x" },
      { companyId: company.id, config: 42 },
      null,
      { config: "{}" },
      { companyId: 7, config: { features: [] } },
      "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      { companyId: child.id, config: '{"features":["own"]}' },
      { companyId: company.id, unknownField: "ignored, as before" },
    ];
    const res = await bulkUntyped({ templateId: template.id, items });
    expect(res.status).toBe(200);
    const body = res.json as BulkIssueResponse;
    expect(body).toMatchObject({ requested: 9, succeeded: 3, failed: 6 });
    const failed = (companyId: string | null, errorCode: string, errorMessage: string) => ({
      companyId,
      licenseId: null,
      licenseKey: null,
      errorCode,
      errorMessage,
    });
    expect(body.results.slice(1, 7)).toEqual([
      failed("x", "request.invalid", "companyId: Invalid UUID"),
      failed(company.id, "license.invalid_config", "config: Invalid input: expected string, received number"),
      failed(null, "request.invalid", "item: Invalid input: expected object, received null"),
      failed(null, "request.invalid", "companyId: Invalid input: expected string, received undefined"),
      failed(
        null,
        "request.invalid",
        "companyId: Invalid input: expected string, received number; config: Invalid input: expected string, received object",
      ),
      failed(null, "request.invalid", "item: Invalid input: expected object, received string"),
    ]);
    const issued = [body.results[0]!, body.results[7]!, body.results[8]!];
    expect(issued.map((r) => [r.companyId, r.errorCode])).toEqual([
      [company.id, null],
      [child.id, null],
      [company.id, null],
    ]);
    expect(JSON.parse((await getLicense(issued[1]!.licenseId!)).config)).toMatchObject({ features: ["own"] });

    // Exactly the three licenses, each with its event and audit row: nothing of the refused items.
    const ids: unknown[] = issued.map((r) => r.licenseId);
    expect(await licenseCount()).toBe(before.licenses + 3);
    const after = { events: await events(), audit: await audit() };
    expect(after.events).toHaveLength(before.events + 3);
    expect(after.events.filter((e) => ids.includes(e.data.licenseId)).map((e) => e.eventType)).toEqual(
      Array(3).fill("license.issued"),
    );
    expect(after.audit).toHaveLength(before.audit + 3);
    expect(after.audit.filter((a) => ids.includes(a.entityId)).map((a) => a.action)).toEqual(
      Array(3).fill("license.issued"),
    );
  });

  it("answers a malformed item the same way on tRPC, and replays it for a repeated Idempotency-Key", async () => {
    const body = { templateId: template.id, items: [{ companyId: company.id }, { companyId: "not-a-uuid" }] };
    const before = await licenseCount();
    // The typed input refuses such an item at compile time; a caller without types can still send it.
    const mutate = (key: string) =>
      admin.trpc.licenses.bulkIssue.mutate(body as never, {
        context: { headers: { "idempotency-key": key } },
      });
    const first = await mutate("bulk-malformed");
    expect(first).toMatchObject({ requested: 2, succeeded: 1, failed: 1 });
    expect(first.results[1]).toEqual({
      companyId: "not-a-uuid",
      licenseId: null,
      licenseKey: null,
      errorCode: "request.invalid",
      errorMessage: "companyId: Invalid UUID",
    });
    expect(await mutate("bulk-malformed")).toEqual(first);
    const rest = await admin.post(url, body, { "idempotency-key": "bulk-malformed-rest" });
    expect((rest.json as BulkIssueResponse).results[1]).toEqual(first.results[1]);
    expect(await licenseCount()).toBe(before + 2);
    const again = await admin.post(url, body, { "idempotency-key": "bulk-malformed-rest" });
    expect(again.text).toBe(rest.text);
    expect(await licenseCount()).toBe(before + 2);
    const other = await admin.post(
      url,
      { ...body, items: [{ companyId: "x" }] },
      {
        "idempotency-key": "bulk-malformed-rest",
      },
    );
    expect(other.error).toEqual(errorBody("idempotency.key_reused", 409));
  });

  it("refuses with 400 a request that is not a bulk issue, whatever its items", async () => {
    const before = await licenseCount();
    const bad = ["x", 7, null];
    expect((await bulkUntyped({ templateId: template.id })).error).toEqual(errorBody("request.invalid", 400));
    expect((await bulkUntyped({ templateId: template.id, items: "x" })).error).toEqual(
      errorBody("request.invalid", 400),
    );
    expect((await bulkUntyped({ templateId: "x", items: [{ companyId: company.id }] })).error).toEqual(
      errorBody("request.invalid", 400),
    );
    expect((await admin.post(url, [{ companyId: company.id }])).error).toEqual(
      errorBody("request.invalid", 400),
    );
    expect((await bulkUntyped({ templateId: template.id, items: [], config: 42 })).error).toEqual(
      errorBody("request.invalid", 400),
    );
    const tooMany = Array.from({ length: 201 }, (_, i) => bad[i % 3]);
    expect((await bulkUntyped({ templateId: template.id, items: tooMany })).error).toEqual(
      errorBody("license.bulk_too_large", 400),
    );
    expect(await licenseCount()).toBe(before);
  });

  it("fails the whole batch for batch-level problems: template, expiry, binding", async () => {
    const before = await licenseCount();
    const items = [{ companyId: company.id }];
    const unknown = await bulk({ templateId: "00000000-0000-4000-8000-000000000000", items });
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
    const past = await bulk({ templateId: template.id, items, expiresAt: "2000-01-01T00:00:00Z" });
    expect(past.error).toEqual(errorBody("license.invalid_expiry", 400));
    const binding = await bulk({ templateId: template.id, items, hwBinding: "fixed" });
    expect(binding.error).toEqual(errorBody("license.invalid_binding", 400));
    // Batch-level problems win over item-level ones: nothing is issued, no row is reported.
    const both = await bulkUntyped({
      templateId: template.id,
      items: [{ companyId: "x" }],
      hwBinding: "fixed",
    });
    expect(both.error).toEqual(errorBody("license.invalid_binding", 400));
    expect(await licenseCount()).toBe(before);
  });

  it("applies the batch terms to every item", async () => {
    const res = await bulk({
      templateId: template.id,
      items: [{ companyId: company.id }, { companyId: company.id }],
      offlineDays: 99,
      hwFingerprint: "shared-machine",
      expiresAt: new Date(app.clock.now().getTime() + 10 * 86_400_000).toISOString(),
    });
    for (const r of res.body.results) {
      const license = await getLicense(r.licenseId!);
      expect(license).toMatchObject({ offlineDays: 30, hwBinding: "fixed", hwFingerprint: "shared-machine" });
    }
  });

  it("replays the first response for a repeated Idempotency-Key and issues nothing new", async () => {
    const body = { templateId: template.id, items: [{ companyId: company.id }, { companyId: company.id }] };
    const before = await licenseCount();
    const [a, b] = await Promise.all([
      bulk(body, admin, { "idempotency-key": "bulk-1" }),
      bulk(body, admin, { "idempotency-key": "bulk-1" }),
    ]);
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    const c = await bulk(body, admin, { "idempotency-key": "bulk-1" });
    expect(c.text).toBe(a.text);
    expect(await licenseCount()).toBe(before + 2);
    const other = await bulk({ ...body, isTrial: true }, admin, { "idempotency-key": "bulk-1" });
    expect(other.error).toEqual(errorBody("idempotency.key_reused", 409));
  });
});
