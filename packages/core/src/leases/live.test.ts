import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../sql-rows.ts";
import { isLeaseLive, leaseLiveCondition, leaseLiveSql } from "./live.ts";
import { leaseExpiry, renewAfterSeconds } from "./terms.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.dispose());

const now = new Date("2026-06-01T12:00:00.000Z");
const at = (ms: number) => new Date(now.getTime() + ms);
const cases = [at(-60_000), at(-1), at(0), at(1), at(60_000)].flatMap((expiresAt) =>
  [null, at(-1)].flatMap((releasedAt) => [false, true].map((lapsed) => ({ expiresAt, releasedAt, lapsed }))),
);

describe("the live-lease rule", () => {
  it("says the same in TypeScript, in raw SQL and in query-builder conditions", async () => {
    for (const lease of cases) {
      const name = JSON.stringify(lease);
      // A one-row stand-in for the leases table, so the conditions' columns resolve.
      const leases = sql`(values (${lease.expiresAt.toISOString()}::timestamptz, ${lease.releasedAt?.toISOString() ?? null}::timestamptz, ${lease.lapsed}::boolean)) as leases(expires_at, released_at, lapsed)`;
      const [row] = rowsOf<{ raw: boolean; built: boolean }>(
        await database.db.execute(sql`
          select ${leaseLiveSql("leases", sql`${now.toISOString()}::timestamptz`)} as raw,
                 ${leaseLiveCondition(now)} as built
            from ${leases}`),
      );
      expect(row, name).toEqual({ raw: isLeaseLive(lease, now), built: isLeaseLive(lease, now) });
    }
    expect(isLeaseLive({ expiresAt: at(1), releasedAt: null, lapsed: false }, now)).toBe(true);
    expect(isLeaseLive({ expiresAt: at(0), releasedAt: null, lapsed: false }, now)).toBe(false);
  });
});

describe("lease terms", () => {
  it("expire leaseSeconds ahead, never past the license's expiry", () => {
    expect(leaseExpiry({ leaseSeconds: 900, expiresAt: at(86_400_000) }, now)).toEqual(at(900_000));
    expect(leaseExpiry({ leaseSeconds: 900, expiresAt: at(60_000) }, now)).toEqual(at(60_000));
  });

  it("renew after a third of the time left, at least a second", () => {
    expect(renewAfterSeconds(at(900_000), now)).toBe(300);
    expect(renewAfterSeconds(at(60_000), now)).toBe(20);
    expect(renewAfterSeconds(at(7 * 86_400_000), now)).toBe(201_600);
    expect(renewAfterSeconds(at(1_000), now)).toBe(1);
    expect(renewAfterSeconds(at(0), now)).toBe(1);
  });
});
