import { recordAudit } from "@licensing/core";
import { tables } from "@licensing/db";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { RequestOf } from "../testing/api-client.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createCompany, createMember } from "../testing/fixtures.ts";

const base = "/api/v1/panel/audit";
let app: TestApp;
let op: TestClient;
const request = { ip: "203.0.113.9", userAgent: null };

beforeAll(async () => {
  app = await startTestApp();
  op = await app.client({ signIn: true });
});
afterAll(() => app.close());

type AuditQuery = RequestOf<typeof operations.audit.list>["query"];
type ExportQuery = RequestOf<typeof operations.audit.export>["query"];
const list = (query?: AuditQuery, client = op) => client.api.audit.list({ query });
const exportLog = (query?: ExportQuery, client = op) => client.api.audit.export({ query });

async function seed(entries: { action: string; actorEmail?: string; entityId?: string; meta?: object }[]) {
  for (const e of entries) {
    app.clock.advance(1000);
    await recordAudit(
      app.deps.db,
      app.deps.clock,
      { email: e.actorEmail ?? "seed@example.com", request },
      {
        action: e.action,
        entityType: "thing",
        entityId: e.entityId ?? null,
        meta: (e.meta as Record<string, unknown>) ?? {},
      },
    );
  }
}

describe("GET /panel/audit", () => {
  it("filters by action, actor, entity and time, newest first", async () => {
    const t0 = new Date(app.clock.now().getTime() + 500).toISOString();
    await seed([
      { action: "thing.made", entityId: "t1" },
      { action: "thing.made", entityId: "t2", actorEmail: "other@example.com" },
      { action: "thing.broken", entityId: "t1" },
    ]);
    const t2 = new Date(app.clock.now().getTime() - 500).toISOString();
    const made = await list({ action: "thing.made" });
    expect(made.status).toBe(200);
    expect(made.body.map((r) => r.entityId)).toEqual(["t2", "t1"]);
    expect(made.body[0]).toMatchObject({ entityType: "thing", ipAddress: "203.0.113.9", meta: "{}" });
    expect((await list({ actorEmail: "other@example.com" })).body).toHaveLength(1);
    expect((await list({ entityType: "thing", entityId: "t1" })).body).toHaveLength(2);
    const window = await list({ entityType: "thing", from: t0, until: t2 });
    expect(window.body.map((r) => r.entityId)).toEqual(["t2", "t1"]);
  });

  it("pages with limit (default 100, 1..500) and offset", async () => {
    await seed(Array.from({ length: 120 }, (_, i) => ({ action: "page.row", entityId: String(i) })));
    expect((await list({ action: "page.row" })).body).toHaveLength(100);
    const page = await list({ action: "page.row", limit: 7, offset: 3 });
    expect(page.body.map((r) => r.entityId)).toEqual(["116", "115", "114", "113", "112", "111", "110"]);
    expect((await list({ limit: 500 })).status).toBe(200);
    // Queries the schema refuses, sent as they are.
    for (const query of ["limit=0", "limit=501", "limit=x", "offset=-1", "from=yesterday"]) {
      const res = await op.get(`${base}?${query}`);
      expect(res.status).toBe(400);
      expect(res.error.code).toBe("request.invalid");
    }
    const reversed = await list({ from: "2026-02-01T00:00:00Z", until: "2026-01-01T00:00:00Z" });
    expect(reversed.error.code).toBe("audit.invalid_range");
  });

  it("is for operators only", async () => {
    const company = await createCompany(op, null);
    const owner = await createMember(app, { companyId: company.id, role: "owner" });
    const res = await list({}, owner.client);
    expect(res.status).toBe(403);
    expect(res.error.code).toBe("auth.operator_required");
    expect((await exportLog({}, owner.client)).error.code).toBe("auth.operator_required");
  });

  it("records the mutations of this API with actor, entity and client IP", async () => {
    const company = await createCompany(op, null);
    const rows = await list({ entityType: "company", entityId: company.id });
    expect(rows.body[0]).toMatchObject({ action: "company.created", actorEmail: "root@example.com" });
    expect(rows.body[0]!.ipAddress).toMatch(/127\.0\.0\.1/);
    expect(JSON.parse(rows.body[0]!.meta)).toMatchObject({ slug: company.slug });
  });
});

describe("GET /panel/audit/export", () => {
  it("streams RFC 4180 CSV that parses back to the same meta, as an attachment", async () => {
    const tricky = { note: 'a, "quoted"\nline two\r\nthree', list: [1, ","], "key,with,commas": '""' };
    await seed([{ action: "csv.tricky", entityId: 'id,"x"', meta: tricky }, { action: "csv.plain" }]);
    const res = await exportLog({ entityType: "thing", action: "csv.tricky" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const day = app.clock.now().toISOString().slice(0, 10).replaceAll("-", "");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="audit-${day}.csv"`);
    expect(res.text.split("\r\n")[0]).toBe("timestamp,actor,action,entityType,entityId,meta");
    const records = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actor: "seed@example.com",
      action: "csv.tricky",
      entityType: "thing",
      entityId: 'id,"x"',
    });
    expect(JSON.parse(records[0]!.meta!)).toEqual(tricky);
    expect(new Date(records[0]!.timestamp!).toISOString()).toBe(records[0]!.timestamp);
  });

  it("exports every matching row across keyset pages, oldest first, without repeats", async () => {
    const now = app.clock.now().getTime();
    // 2,345 rows, many sharing a timestamp, so the (occurred_at, id) keyset has ties to break.
    const values = Array.from({ length: 2345 }, (_, i) => ({
      action: "bulk.row",
      actorEmail: "bulk@example.com",
      entityType: "thing",
      entityId: String(i),
      meta: { i },
      ipAddress: null,
      occurredAt: new Date(now + Math.floor(i / 10)),
    }));
    for (let i = 0; i < values.length; i += 500) {
      await app.deps.db.insert(tables.auditLog).values(values.slice(i, i + 500));
    }
    app.clock.advance(10_000);
    const res = await exportLog({ action: "bulk.row", format: "csv" });
    const records = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(2345);
    expect(new Set(records.map((r) => r.entityId)).size).toBe(2345);
    const times = records.map((r) => r.timestamp!);
    expect([...times].sort()).toEqual(times);

    const json = await exportLog({ action: "bulk.row", format: "json" });
    expect(json.headers.get("content-disposition")).toMatch(/filename="audit-\d{8}\.json"/);
    // A streamed file: its text, parsed here.
    const exported = JSON.parse(json.body) as { entityId: string; meta: string }[];
    expect(exported).toHaveLength(2345);
    const first = exported.find((r) => r.entityId === "0");
    expect(first).toMatchObject({ action: "bulk.row", meta: '{"i":0}' });
  });

  it("exports an empty JSON array when nothing matches", async () => {
    const res = await exportLog({ format: "json", action: "nothing.here" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual([]);
  });

  it("refuses an unknown format with audit.invalid_format", async () => {
    const res = await exportLog({ format: "xml" });
    expect(res.status).toBe(400);
    expect(res.error).toEqual({ code: "audit.invalid_format", message: expect.any(String), status: 400 });
  });

  it("logs the export itself as audit.exported", async () => {
    app.clock.advance(1000);
    await exportLog({ format: "json", action: "csv.plain" });
    const [row] = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.action, "audit.exported"))
      .orderBy(tables.auditLog.occurredAt)
      .limit(1);
    expect(row).toMatchObject({ actorEmail: "root@example.com", entityType: "audit_log" });
    expect(row!.meta).toMatchObject({ format: "csv" });
    const logged = await list({ action: "audit.exported" });
    expect(JSON.parse(logged.body[0]!.meta)).toEqual({ format: "json", filters: { action: "csv.plain" } });
  });
});
