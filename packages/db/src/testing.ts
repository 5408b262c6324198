import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { createDatabase, type Database } from "./database.ts";

export interface TestDatabase extends Database {
  /** The postgres:// URL of the test database (absent on PGlite), for a second instance's connections. */
  url?: string;
  /** Closes the connections and drops what the test created. */
  dispose(): Promise<void>;
}

/**
 * An isolated, migrated database for one test file: in-memory PGlite by default, a fresh database on
 * the server named by TEST_DATABASE_URL when it is set (dropped again by `dispose`). `migrate: false` leaves
 * it empty, for a test of a migration's data steps.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = createDatabase();
    if (options.migrate !== false) await database.migrate();
    return { ...database, dispose: () => database.close() };
  }
  const name = `lic_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = createDatabase({ url: url.toString(), maxConnections: 60 });
  if (options.migrate !== false) await database.migrate();
  return {
    ...database,
    url: url.toString(),
    async dispose() {
      await database.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A test database migrated up to, not including, the migration `tag` (its folder name without `.sql`),
 * for a test of that migration's data steps: write rows as the previous release did, then `migrate()`.
 */
export async function createTestDatabaseBefore(tag: string): Promise<TestDatabase> {
  const database = await createTestDatabase({ migrate: false });
  const folder = migrationsBefore(tag);
  try {
    if (database.kind === "embedded") {
      await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    } else {
      await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder: folder });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return database;
}

/** A copy of the migrations folder whose journal stops before `tag`. */
function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), "migrations-"));
  cpSync(new URL("../migrations", import.meta.url).pathname, folder, { recursive: true });
  const journalFile = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`No migration ${tag} in the journal`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

async function adminQuery(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
