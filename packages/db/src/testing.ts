import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PGlite } from "@electric-sql/pglite";
import { createRequire } from "node:module";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createDatabase, type Database } from "./database.ts";

const require = createRequire(import.meta.url);
const migrationsFolder = new URL("../migrations", import.meta.url).pathname;

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
    const database =
      options.migrate === false ? createDatabase() : createDatabase({ loadDataDir: await migratedDataDir() });
    return { ...database, dispose: () => database.close() };
  }
  const name = `lic_test_${randomBytes(6).toString("hex")}`;
  const template = options.migrate === false ? "template1" : await migratedTemplate(serverUrl);
  await adminQuery(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const database = createDatabase({ url: databaseUrl(serverUrl, name), maxConnections: 60 });
  return {
    ...database,
    url: databaseUrl(serverUrl, name),
    async dispose() {
      await database.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** The migrations and the embedded engine a prepared test database was made with. */
const migrationsHash = () => {
  const hash = createHash("sha256").update(readFileSync(require.resolve("@electric-sql/pglite")));
  for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort())
    if (file.endsWith(".sql") || file.endsWith(".json"))
      hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  return hash.digest("hex").slice(0, 16);
};

let template: Promise<string> | undefined;

/**
 * A migrated database on the server that each test database is copied from (CREATE DATABASE … TEMPLATE,
 * a fraction of a second, where the migrations take seconds), made once per set of migrations. It is
 * migrated under a name of its own and renamed when done, so a racing process never copies a half-made one.
 */
function migratedTemplate(serverUrl: string): Promise<string> {
  template ??= (async () => {
    const name = `lic_template_${migrationsHash()}`;
    const exists = await adminQuery(serverUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`);
    if (exists.rowCount) return name;
    const draft = `${name}_${randomBytes(4).toString("hex")}`;
    await adminQuery(serverUrl, `CREATE DATABASE ${draft}`);
    const database = createDatabase({ url: databaseUrl(serverUrl, draft), maxConnections: 1 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    try {
      await adminQuery(serverUrl, `ALTER DATABASE ${draft} RENAME TO ${name}`);
    } catch {
      // Another process made it first.
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${draft} WITH (FORCE)`);
    }
    return name;
  })();
  return template;
}

let migrated: Promise<Uint8Array<ArrayBuffer>> | undefined;

/**
 * A dump of a migrated embedded database, made once per set of migrations and kept in the temporary
 * directory for every test process: loading it takes about a second, where initdb and the migrations
 * take five.
 */
async function migratedDataDir(): Promise<Blob> {
  migrated ??= (async () => {
    const file = join(tmpdir(), `licensing-test-db-${migrationsHash()}.tar`);
    if (!existsSync(file)) {
      const database = createDatabase();
      await database.migrate();
      const dump = await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
      await database.close();
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
    }
    return new Uint8Array(readFileSync(file));
  })();
  // A Blob of its own for each database: two loads at once from one Blob leave one of them empty.
  return new Blob([await migrated]);
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

/** The ids of the rows `insertLegacyLicense` writes. */
export interface LegacyLicenseIds {
  company: string;
  template: string;
  key: string;
  license: string;
}

/** Fresh ids for `insertLegacyLicense`. */
export const newLegacyIds = (): LegacyLicenseIds => ({
  company: randomUUID(),
  template: randomUUID(),
  key: randomUUID(),
  license: randomUUID(),
});

/**
 * A company, a template, its Active key and an Active license (key `SVC-OLD`), written with only the
 * columns every release has had, as a migration's test writes them before migrating.
 */
export async function insertLegacyLicense(
  database: Database,
  ids: LegacyLicenseIds,
  license: { config?: string; liveSeats?: number } = {},
) {
  const db = database.db;
  await db.execute(sql`insert into companies (id, name, slug, path, depth, created_at)
    values (${ids.company}, 'C', 'c', ${`/${ids.company}/`}, 0, now())`);
  await db.execute(sql`insert into templates (id, name, product_code, default_offline_days, default_validity_days,
      created_at, updated_at) values (${ids.template}, 'T', 'T', 7, 365, now(), now())`);
  await db.execute(sql`insert into signing_keys (id, template_id, status, public_key_hex, private_key_sealed,
      not_before, created_at) values (${ids.key}, ${ids.template}, 'Active', 'aa', 'sealed', now(), now())`);
  await db.execute(sql`insert into licenses (id, license_key, company_id, template_id, signing_key_id, status,
      config, offline_days, token, expires_at, issued_at, is_trial, hw_binding, updated_at, live_seats)
    values (${ids.license}, 'SVC-OLD', ${ids.company}, ${ids.template}, ${ids.key}, 'Active',
      ${license.config ?? "{}"}, 7, 't', now() + interval '1 year', now(), false, 'none', now(),
      ${license.liveSeats ?? 0})`);
}

/** A copy of the migrations folder whose journal stops before `tag`. */
function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), "migrations-"));
  cpSync(migrationsFolder, folder, { recursive: true });
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
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The rows of a `db.execute` answer: node-postgres and PGlite both answer `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
