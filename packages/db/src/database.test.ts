import { readFileSync } from "node:fs";
import { count, sql } from "drizzle-orm";
import { tables } from "./index.ts";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "./testing.ts";

describe("createTestDatabase", () => {
  const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  afterAll(async () => {
    for (const d of databases) await d.dispose();
  });

  it("migrates twice without error and answers ping", async () => {
    const database = await createTestDatabase();
    databases.push(database);
    await database.migrate();
    await database.ping();
    expect(await database.db.select({ n: count() }).from(tables.users)).toEqual([{ n: 0 }]);
  });

  it("gives each caller its own database", async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    databases.push(a!, b!);
    await a!.db.execute(sql`insert into mail_outbox (id, "to", subject, text, status, created_at)
      values (gen_random_uuid(), 'a@example.com', 's', 't', 'logged', now())`);
    expect(await a!.db.select({ n: count() }).from(tables.mailOutbox)).toEqual([{ n: 1 }]);
    expect(await b!.db.select({ n: count() }).from(tables.mailOutbox)).toEqual([{ n: 0 }]);
  });

  // The advisory lock exists only on a server; PGlite allows one process per data directory.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "runs concurrent migrations on one server without racing",
    async () => {
      const database = await createTestDatabase();
      databases.push(database);
      await Promise.all([database.migrate(), database.migrate(), database.migrate()]);
      // Each migration is recorded once, not once per racing caller.
      const applied = (await database.db.execute(
        sql`select hash from drizzle.__drizzle_migrations`,
      )) as unknown as {
        rows: unknown[];
      };
      expect(applied.rows).toHaveLength(migrationCount());
    },
  );
});

function migrationCount() {
  const journal = JSON.parse(
    readFileSync(new URL("../migrations/meta/_journal.json", import.meta.url), "utf8"),
  ) as {
    entries: unknown[];
  };
  return journal.entries.length;
}
