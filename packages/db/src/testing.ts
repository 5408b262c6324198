import { randomBytes } from "node:crypto";
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

async function adminQuery(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
