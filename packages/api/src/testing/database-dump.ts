import { spawnSync } from "node:child_process";
import { sql } from "drizzle-orm";
import type { TestDatabase } from "@licensing/db/testing";
import { needTool, tools } from "./tools/index.ts";

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The whole content of the test database as text, as someone holding a backup would see it: `pg_dump
 * --data-only` on PostgreSQL, otherwise every row of every table as text (PGlite; or PostgreSQL without
 * pg_dump, which says so in a line, and fails under REQUIRE_TOOLS=1).
 */
export async function dumpDatabase(database: TestDatabase): Promise<string> {
  const pgDump = database.url
    ? needTool(
        tools.pgDump,
        "the dump through pg_dump in the secrets-at-rest test (the rows are read through SQL instead)",
      )
    : null;
  if (pgDump) {
    const dumped = spawnSync(pgDump, ["--data-only", `--dbname=${database.url}`], {
      encoding: "utf8",
      maxBuffer: 512 * 1024 * 1024,
    });
    if (dumped.error || dumped.status !== 0)
      throw new Error(`pg_dump failed: ${dumped.error?.message ?? dumped.stderr}`);
    return dumped.stdout;
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
