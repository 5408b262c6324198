import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "./driver-errors.ts";
import {
  createTestDatabaseBefore,
  insertLegacyLicense,
  newLegacyIds,
  rowsOf,
  type TestDatabase,
} from "./testing.ts";

// 0021 drops `activations_by_license_status` (decision 0061): the two indexes that cover it stay, and so
// does the one the previous release names (the unique violation of a racing activation, decision 0055).
const TAG = "0021_activation_indexes";

let database: TestDatabase;
const ids = newLegacyIds();

const insertActivation = (fingerprint: string | null, status: "active" | "deactivated") =>
  database.db.execute(sql`insert into activations (id, license_id, company_id, template_id, hw_fingerprint,
      status, activated_at, deactivated_at)
    values (${randomUUID()}, ${ids.license}, ${ids.company}, ${ids.template}, ${fingerprint}, ${status}, now(),
      ${status === "deactivated" ? sql`now()` : null})`);

/** The plan of `query` with sequential scans priced out, as a table of realistic size would. */
async function plan(query: string): Promise<string> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const lines = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`explain (costs off) ${query}`)));
    return lines.map((line) => line["QUERY PLAN"]).join("\n");
  });
}

beforeAll(async () => {
  database = await createTestDatabaseBefore(TAG);
  await insertLegacyLicense(database, ids, { liveSeats: 2 });
  await insertActivation("m-1", "active");
  await insertActivation(null, "active");
  await insertActivation("m-2", "deactivated");
  await database.migrate();
});
afterAll(async () => {
  await database?.dispose();
});

describe(`migration ${TAG}`, () => {
  it("drops activations_by_license_status and keeps the indexes that cover it", async () => {
    const names = rowsOf<{ indexname: string }>(
      await database.db.execute(
        sql`select indexname from pg_indexes where tablename = 'activations' order by indexname`,
      ),
    ).map((r) => r.indexname);
    expect(names).not.toContain("activations_by_license_status");
    expect(names).toEqual(
      expect.arrayContaining(["activations_active_machine_key", "activations_by_license_fingerprint"]),
    );
  });

  it("still refuses a second live activation of one machine by the index the previous release names", async () => {
    const error = await insertActivation("m-1", "active").catch((e: unknown) => e);
    expect(isUniqueViolation(error, "activations_active_machine_key")).toBe(true);
  });

  it("finds a license's live activations and all of its activations by an index", async () => {
    const live = await plan(
      `select id from activations where license_id = '${ids.license}' and status = 'active'`,
    );
    expect(live).toMatch(/activations_active_machine_key|activations_by_license_fingerprint/);
    const all = await plan(`select id from activations where license_id = '${ids.license}'`);
    expect(all).toMatch(/activations_by_license_fingerprint/);
    const counted = rowsOf<{ live: number; all: number }>(
      await database.db.execute(sql`select count(*) filter (where status = 'active')::int as live,
          count(*)::int as all from activations where license_id = ${ids.license}`),
    );
    // The live activation without a fingerprint is in the partial index too.
    expect(counted).toEqual([{ live: 2, all: 3 }]);
  });
});
