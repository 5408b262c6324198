import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tables } from "./index.ts";
import { createTestDatabaseBefore, insertLegacyLicense, type TestDatabase } from "./testing.ts";

// Rows written before 0015 (decisions 0046, 0047) take the defaults: fuzzy matching, no device budget
// in a 30-day window, no components and no new device counted.
const TAG = "0015_device_lifecycle";

let database: TestDatabase;
const ids = {
  company: randomUUID(),
  template: randomUUID(),
  key: randomUUID(),
  license: randomUUID(),
  live: randomUUID(),
  gone: randomUUID(),
};

beforeAll(async () => {
  database = await createTestDatabaseBefore(TAG);
  const db = database.db;
  await insertLegacyLicense(database, ids, { liveSeats: 1 });
  await db.execute(sql`insert into activations (id, license_id, company_id, template_id, hw_fingerprint, status,
      activated_at, deactivated_at) values
    (${ids.live}, ${ids.license}, ${ids.company}, ${ids.template}, 'fp-live', 'active', now(), null),
    (${ids.gone}, ${ids.license}, ${ids.company}, ${ids.template}, 'fp-gone', 'deactivated', now(), now())`);
  await database.migrate();
});
afterAll(async () => {
  await database?.dispose();
});

describe(`migration ${TAG}`, () => {
  it("gives existing templates fuzzy matching and no device budget in a 30-day window", async () => {
    const [template] = await database.db
      .select()
      .from(tables.templates)
      .where(eq(tables.templates.id, ids.template));
    expect(template).toMatchObject({
      fingerprintMatch: "fuzzy",
      maxNewDevicesPerWindow: null,
      newDeviceWindowDays: 30,
    });
  });

  it("gives existing licenses the same terms, never reset or refused", async () => {
    const [license] = await database.db
      .select()
      .from(tables.licenses)
      .where(eq(tables.licenses.id, ids.license));
    expect(license).toMatchObject({
      fingerprintMatch: "fuzzy",
      maxNewDevicesPerWindow: null,
      newDeviceWindowDays: 30,
      deviceBudgetResetAt: null,
      deviceBudgetRefusedUntil: null,
      liveSeats: 1,
    });
  });

  it("leaves existing activations without components, and counts none of them as a new device", async () => {
    const rows = await database.db
      .select()
      .from(tables.activations)
      .where(eq(tables.activations.licenseId, ids.license));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ components: null, newDevice: false });
  });
});
