import { spawnSync } from "node:child_process";
import { sql } from "drizzle-orm";
import type { TestDatabase } from "@licensing/db/testing";

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The whole content of the test database as text, as someone holding a backup would see it: `pg_dump
 * --data-only` on PostgreSQL when the tool is installed, otherwise every row of every table as text
 * (PGlite, or no pg_dump).
 */
export async function dumpDatabase(database: TestDatabase): Promise<string> {
  if (database.url) {
    const dumped = spawnSync("pg_dump", ["--data-only", `--dbname=${database.url}`], {
      encoding: "utf8",
      maxBuffer: 512 * 1024 * 1024,
    });
    if (!dumped.error && dumped.status === 0) return dumped.stdout;
  }
  const tables = rowsOf<{ schema: string; name: string }>(
    await database.db.execute(sql`select schemaname as schema, tablename as name from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`),
  );
  const parts: string[] = [];
  for (const { schema, name } of tables) {
    const rows = rowsOf<{ row: string }>(
      await database.db.execute(
        sql`select t::text as row from ${sql.identifier(schema)}.${sql.identifier(name)} t`,
      ),
    );
    parts.push(`-- ${schema}.${name}`, ...rows.map((r) => r.row));
  }
  return parts.join("\n");
}
