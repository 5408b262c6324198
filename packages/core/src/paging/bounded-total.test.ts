import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedTotal, EXACT_TOTAL_LIMIT } from "./bounded-total.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.dispose());

// generate_series has a planner support function, so its row estimate is exact.
const rows = (n: number) => sql`SELECT 1 FROM generate_series(1, ${sql.raw(String(n))})`;

describe("boundedTotal", () => {
  it("counts exactly up to the limit, and says it is a count", async () => {
    const exact = (total: number) => ({ total, isEstimate: false });
    expect(await boundedTotal(database.db, rows(0))).toEqual(exact(0));
    expect(await boundedTotal(database.db, rows(37))).toEqual(exact(37));
    expect(await boundedTotal(database.db, rows(EXACT_TOTAL_LIMIT))).toEqual(exact(EXACT_TOTAL_LIMIT));
  });

  it("answers the planner's estimate past the limit, never less than the limit + 1, and says so", async () => {
    expect(await boundedTotal(database.db, rows(EXACT_TOTAL_LIMIT + 1))).toEqual({
      total: EXACT_TOTAL_LIMIT + 1,
      isEstimate: true,
    });
    expect(await boundedTotal(database.db, rows(25_000))).toEqual({ total: 25_000, isEstimate: true });
    // The planner guesses a third of the rows for this filter; the count knows there are more than the limit.
    const underestimated = sql`SELECT 1 FROM generate_series(1, 1500) AS i WHERE i % 7 < 7`;
    const answer = await boundedTotal(database.db, underestimated);
    expect(answer.total).toBeGreaterThan(EXACT_TOTAL_LIMIT);
    expect(answer.isEstimate).toBe(true);
  });
});
