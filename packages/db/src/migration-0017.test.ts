import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tables } from "./index.ts";
import { createTestDatabaseBefore, type TestDatabase } from "./testing.ts";

// Rows written before the key chain (decision 0049): each template's first key becomes its root, the keys
// rotated in after it wait for a certificate, and every template and license keeps graceful revocation.
const TAG = "0017_key_chain_and_immediate_revocation";

let database: TestDatabase;
const ids = {
  company: randomUUID(),
  template: randomUUID(),
  other: randomUUID(),
  first: randomUUID(),
  rotated: randomUUID(),
  only: randomUUID(),
  license: randomUUID(),
};

beforeAll(async () => {
  database = await createTestDatabaseBefore(TAG);
  const db = database.db;
  await db.execute(sql`insert into companies (id, name, slug, path, depth, created_at)
    values (${ids.company}, 'C', 'c', ${`/${ids.company}/`}, 0, now())`);
  await db.execute(sql`insert into templates (id, name, product_code, default_offline_days, default_validity_days,
      created_at, updated_at) values
    (${ids.template}, 'T', 'T', 7, 365, now(), now()),
    (${ids.other}, 'O', 'O', 7, 365, now(), now())`);
  // The rotated key is inserted first, so that the root is told by its age, not by the order of rows.
  await db.execute(sql`insert into signing_keys (id, template_id, status, public_key_hex, private_key_sealed,
      not_before, created_at) values
    (${ids.rotated}, ${ids.template}, 'Active', 'bb', 'sealed', now(), now()),
    (${ids.first}, ${ids.template}, 'Retired', 'aa', 'sealed', now() - interval '1 day', now() - interval '1 day'),
    (${ids.only}, ${ids.other}, 'Active', 'cc', 'sealed', now(), now())`);
  await db.execute(sql`insert into licenses (id, license_key, company_id, template_id, signing_key_id, status,
      config, offline_days, token, expires_at, issued_at, is_trial, hw_binding, updated_at, revoked_at)
    values (${ids.license}, 'SVC-OLD', ${ids.company}, ${ids.template}, ${ids.first}, 'Revoked', '{}', 7, 't',
      now() + interval '1 year', now(), false, 'none', now(), now())`);
  await database.migrate();
});
afterAll(async () => {
  await database?.dispose();
});

describe(`migration ${TAG}`, () => {
  it("makes each template's oldest key its root, whatever its status; no key has a certificate yet", async () => {
    const keys = await database.db
      .select({
        id: tables.signingKeys.id,
        isRoot: tables.signingKeys.isRoot,
        certificate: tables.signingKeys.certificate,
      })
      .from(tables.signingKeys)
      .orderBy(asc(tables.signingKeys.createdAt));
    expect(keys).toEqual(
      expect.arrayContaining([
        { id: ids.first, isRoot: true, certificate: null },
        { id: ids.rotated, isRoot: false, certificate: null },
        { id: ids.only, isRoot: true, certificate: null },
      ]),
    );
  });

  it("keeps one root per template", async () => {
    await expect(
      database.db
        .update(tables.signingKeys)
        .set({ isRoot: true })
        .where(eq(tables.signingKeys.id, ids.rotated)),
    ).rejects.toThrow();
  });

  it("gives existing templates and licenses graceful revocation (the spec's rule 5)", async () => {
    const [template] = await database.db
      .select({ revocation: tables.templates.revocation })
      .from(tables.templates)
      .where(eq(tables.templates.id, ids.template));
    const [license] = await database.db
      .select({ revocation: tables.licenses.revocation })
      .from(tables.licenses)
      .where(eq(tables.licenses.id, ids.license));
    expect([template?.revocation, license?.revocation]).toEqual(["graceful", "graceful"]);
  });
});
