import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tables } from "./index.ts";
import { createTestDatabaseBefore, type TestDatabase } from "./testing.ts";

// Rows written before 0018 (decision 0048) take the defaults: node-locked seats, 15-minute leases and
// no borrowing; an existing license's machine limit is its seat limit, as it always was.
const TAG = "0018_floating_seats";

let database: TestDatabase;
const ids = {
  company: randomUUID(),
  template: randomUUID(),
  key: randomUUID(),
  license: randomUUID(),
};

beforeAll(async () => {
  database = await createTestDatabaseBefore(TAG);
  const db = database.db;
  await db.execute(sql`insert into companies (id, name, slug, path, depth, created_at)
    values (${ids.company}, 'C', 'c', ${`/${ids.company}/`}, 0, now())`);
  await db.execute(sql`insert into templates (id, name, product_code, default_offline_days, default_validity_days,
      created_at, updated_at) values (${ids.template}, 'T', 'T', 7, 365, now(), now())`);
  await db.execute(sql`insert into signing_keys (id, template_id, status, public_key_hex, private_key_sealed,
      not_before, created_at) values (${ids.key}, ${ids.template}, 'Active', 'aa', 'sealed', now(), now())`);
  await db.execute(sql`insert into licenses (id, license_key, company_id, template_id, signing_key_id, status,
      config, offline_days, token, expires_at, issued_at, is_trial, hw_binding, updated_at, live_seats)
    values (${ids.license}, 'SVC-OLD', ${ids.company}, ${ids.template}, ${ids.key}, 'Active',
      '{"features":[],"limits":{"maxSeats":3,"maxMachines":1}}', 7, 't',
      now() + interval '1 year', now(), false, 'none', now(), 2)`);
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
