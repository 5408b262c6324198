import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY } from "../clock.ts";
import { rowsOf } from "../sql-rows.ts";
import { knownSince, KNOWN_DEVICE_DAYS, liveSince, liveSinceSql } from "./device-budget.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.dispose());

const now = new Date("2030-06-01T12:00:00Z");
const since = knownSince(now);

describe("what makes a machine known (decision 0047)", () => {
  it("is 90 days back", () => {
    expect(KNOWN_DEVICE_DAYS).toBe(90);
    expect(now.getTime() - since.getTime()).toBe(90 * DAY);
  });

  const cases = [
    ["active", null, true],
    ["deactivated", new Date(since.getTime()), true], // deactivated exactly 90 days ago: still known
    ["deactivated", new Date(since.getTime() + 1000), true],
    ["deactivated", new Date(since.getTime() - 1000), false],
    ["deactivated", null, false],
  ] as const;

  it.each(cases)("%s, deactivated at %s → %s", (status, deactivatedAt, known) => {
    expect(liveSince({ status, deactivatedAt }, since)).toBe(known);
  });

  it("liveSinceSql says the same as liveSince", async () => {
    for (const [status, deactivatedAt, known] of cases) {
      const [row] = rowsOf<{ known: boolean | null }>(
        await database.db.execute(sql`
          select ${liveSinceSql("a", sql`${since.toISOString()}::timestamptz`)} as known
            from (values (${status}::text, ${deactivatedAt?.toISOString() ?? null}::timestamptz))
                 as a(status, deactivated_at)`),
      );
      expect(row!.known === true, `${status} ${deactivatedAt?.toISOString()}`).toBe(known);
    }
  });
});
