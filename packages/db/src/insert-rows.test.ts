import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertRows, tables } from "./index.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.dispose());

const rowsOf = (action: string) =>
  database.db
    .select()
    .from(tables.auditLog)
    .where(eq(tables.auditLog.action, action))
    .orderBy(asc(tables.auditLog.entityId));

describe("insertRows", () => {
  it("stores what Drizzle's insert stores: text, null, timestamps to the millisecond, JSON as it is", async () => {
    const at = new Date("2026-03-04T05:06:07.891Z");
    const entries = (action: string) => [
      {
        action,
        actorEmail: "a@example.com",
        entityType: "license",
        entityId: "1",
        meta: { quote: `"'\\`, unicode: "é ✓ 𝄞", nested: { list: [1, null, true] }, control: "a\tb\u0001" },
        ipAddress: null,
        occurredAt: at,
      },
      {
        action,
        actorEmail: null,
        entityType: "license",
        entityId: "2",
        meta: {},
        ipAddress: "::1",
        occurredAt: at,
      },
    ];
    await database.db.insert(tables.auditLog).values(entries("by-drizzle"));
    await insertRows(database.db, tables.auditLog, entries("by-insert-rows"));
    const strip = (rows: Awaited<ReturnType<typeof rowsOf>>) => rows.map(({ id: _, action: __, ...r }) => r);
    const stored = await rowsOf("by-insert-rows");
    expect(stored).toHaveLength(2);
    expect(strip(stored)).toEqual(strip(await rowsOf("by-drizzle")));
    expect(stored[0]!.occurredAt.toISOString()).toBe(at.toISOString());
    expect(stored[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("leaves a column no row gives to its default, and refuses one a later row leaves out", async () => {
    const base = { action: "defaults", entityType: "x", entityId: "1", occurredAt: new Date() };
    await insertRows(database.db, tables.auditLog, [base]);
    expect((await rowsOf("defaults"))[0]!.meta).toEqual({});
    await expect(
      insertRows(database.db, tables.auditLog, [
        { ...base, meta: { a: 1 } },
        { ...base, meta: undefined },
      ]),
    ).rejects.toThrow(/meta is undefined/);
  });

  it("inserts nothing for no rows", async () => {
    await insertRows(database.db, tables.auditLog, []);
  });
});
