import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabaseBefore,
  insertLegacyLicense,
  newLegacyIds,
  rowsOf,
  type TestDatabase,
} from "./testing.ts";

// 0022 replaces the key-prefix index by one that also holds the company and the order, so an Admin's
// key-prefix search is filtered, counted and ordered from the index alone (issue 25 §6). Which plan wins
// depends on the table's size, so the plans are measured by bench:search at 1,000,000 licenses, not here.
const TAG = "0022_license_key_prefix";

let database: TestDatabase;
const ids = newLegacyIds();

beforeAll(async () => {
  database = await createTestDatabaseBefore(TAG);
  await insertLegacyLicense(database, ids);
  await database.migrate();
});
afterAll(async () => {
  await database?.dispose();
});

describe(`migration ${TAG}`, () => {
  it("replaces licenses_by_key_prefix by licenses_by_key_prefix_company", async () => {
    const indexes = rowsOf<{ indexname: string; indexdef: string }>(
      await database.db.execute(
        sql`select indexname, indexdef from pg_indexes where tablename = 'licenses' and indexname like 'licenses_by_key_prefix%'`,
      ),
    );
    expect(indexes.map((i) => i.indexname)).toEqual(["licenses_by_key_prefix_company"]);
    expect(indexes[0]!.indexdef).toMatch(/\(license_key text_pattern_ops, company_id, issued_at, id\)/);
  });

  it("still finds the licenses written before it by a key prefix within their company", async () => {
    const [{ key }] = rowsOf<{ key: string }>(
      await database.db.execute(sql`select license_key as key from licenses where id = ${ids.license}`),
    ) as [{ key: string }];
    const found = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select id from licenses where company_id = any(${sql.raw(`array['${ids.company}'::uuid]`)}) and license_key like ${`${key.slice(0, 6)}%`}`,
      ),
    );
    expect(found.map((r) => r.id)).toEqual([ids.license]);
  });
});
