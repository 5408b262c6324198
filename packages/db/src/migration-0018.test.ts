import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tables } from "./index.ts";
import { createTestDatabaseBefore, insertLegacyLicense, newLegacyIds, type TestDatabase } from "./testing.ts";

// Rows written before 0018 (decision 0048) take the defaults: node-locked seats, 15-minute leases and
// no borrowing; an existing license's machine limit is its seat limit, as it always was.
const TAG = "0018_floating_seats";

let database: TestDatabase;
const ids = newLegacyIds();

beforeAll(async () => {
  database = await createTestDatabaseBefore(TAG);
  await insertLegacyLicense(database, ids, {
    config: '{"features":[],"limits":{"maxSeats":3,"maxMachines":1}}',
    liveSeats: 2,
  });
  await database.migrate();
});
afterAll(async () => {
  await database?.dispose();
});

describe(`migration ${TAG}`, () => {
  it("gives existing templates node-locked seats, 15-minute leases and no borrowing", async () => {
    const [template] = await database.db
      .select()
      .from(tables.templates)
      .where(eq(tables.templates.id, ids.template));
    expect(template).toMatchObject({ seatModel: "nodeLocked", leaseSeconds: 900, maxBorrowDays: 0 });
  });

  it("gives existing licenses the same terms; their machine limit is their seat limit", async () => {
    const [license] = await database.db
      .select()
      .from(tables.licenses)
      .where(eq(tables.licenses.id, ids.license));
    expect(license).toMatchObject({
      seatModel: "nodeLocked",
      leaseSeconds: 900,
      maxBorrowDays: 0,
      seatsExhaustedPublishedAt: null,
      maxSeats: 3,
      machineLimit: 3,
      liveSeats: 2,
    });
  });

  it("computes a floating license's machine limit from limits.maxMachines", async () => {
    await database.db.execute(sql`update licenses set seat_model = 'floating' where id = ${ids.license}`);
    const [license] = await database.db
      .select({ maxSeats: tables.licenses.maxSeats, machineLimit: tables.licenses.machineLimit })
      .from(tables.licenses)
      .where(eq(tables.licenses.id, ids.license));
    expect(license).toEqual({ maxSeats: 3, machineLimit: 1 });
  });
});
