import { LICENSE_STATUSES } from "@licensing/contracts";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../sql-rows.ts";
import { isLive, isPastExpiry, liveCondition, liveSql, pastExpiryCondition } from "./live.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.dispose());

const now = new Date("2026-06-01T12:00:00.000Z");
const at = (ms: number) => new Date(now.getTime() + ms);
const cases = LICENSE_STATUSES.flatMap((status) =>
  [at(-86_400_000), at(-1), at(0), at(1), at(86_400_000)].map((expiresAt) => ({ status, expiresAt })),
);

describe("the live-license rule", () => {
  it("says the same in TypeScript, in raw SQL and in query-builder conditions", async () => {
    for (const license of cases) {
      const name = `${license.status} ${license.expiresAt.toISOString()}`;
      // A one-row stand-in for the licenses table, so the conditions' columns resolve.
      const licenses = sql`(values (${license.status}::text, ${license.expiresAt.toISOString()}::timestamptz)) as licenses(status, expires_at)`;
      const [row] = rowsOf<{ raw: boolean; built: boolean; past: boolean }>(
        await database.db.execute(sql`
          select ${liveSql("licenses", sql`${now.toISOString()}::timestamptz`)} as raw,
                 ${liveCondition(now)} as built, ${pastExpiryCondition(now)} as past
            from ${licenses}`),
      );
      expect(row, name).toEqual({
        raw: isLive(license, now),
        built: isLive(license, now),
        past: isPastExpiry(license, now),
      });
      expect(isPastExpiry(license, now), name).toBe(license.status === "Active" && !isLive(license, now));
    }
  });
});
