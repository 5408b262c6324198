import { isNotNull, sql } from "drizzle-orm";
import type { Db, Tx } from "@licensing/db";
import { rowsOf } from "../sql-rows.ts";
import { resealMasterKeyCheck } from "./master-key-check.ts";
import { SEALED_COLUMNS, sealedAt, type SealedColumn } from "./sealed-columns.ts";
import { SEALED_VERSION, type SecretBox } from "./secret-box.ts";

export type RotationResult = Record<keyof typeof SEALED_COLUMNS, number>;

// A constant of this service for the upgrade's advisory lock (the migrations and the operators hold others).
const UPGRADE_LOCK_KEY = 4_210_771_003;

const sealedRows = (db: Pick<Db, "execute">, c: SealedColumn, extra = sql``) =>
  db
    .execute(
      sql`select ${c.id} as id, ${c.sealed} as sealed from ${c.sealed.table} where ${isNotNull(c.sealed)} ${extra}`,
    )
    .then(rowsOf<{ id: string; sealed: string }>);

/**
 * Re-seals, row by row under a lock, the sealed values (all, or those `where` selects) from `from` to
 * `to`, each bound to its row, and opens each result with `to` before moving on. Throws when one does not
 * open, so the caller's transaction leaves everything as it was.
 */
async function resealEvery(tx: Tx, from: SecretBox, to: SecretBox, where = (_c: SealedColumn) => sql``) {
  const counts = {} as RotationResult;
  for (const [kind, c] of Object.entries(SEALED_COLUMNS) as [keyof typeof SEALED_COLUMNS, SealedColumn][]) {
    const rows = await sealedRows(tx, c, sql`${where(c)} for update`);
    for (const row of rows) {
      const at = sealedAt(c.sealed, row.id);
      const resealed = from.reseal(row.sealed, at, to);
      to.open(resealed, at);
      await tx.execute(
        sql`update ${c.sealed.table} set ${sql.identifier(c.sealed.name)} = ${resealed} where ${c.id} = ${row.id}`,
      );
    }
    counts[kind] = rows.length;
  }
  return counts;
}

/**
 * Re-seals every value sealed under the master key (signing private keys, TOTP secrets, webhook
 * endpoint secrets) from `from` to `to`, in one transaction: either all of them move to the new key or none
 * does. Each value is opened with the new key before the commit, so a wrong key never leaves the database
 * half rotated. Values still in the v1 format leave as v2, and the master key check value moves too. Run it with every server stopped: a server still
 * holding the old key cannot open what it seals afterwards (and refuses to start, see `sealedUnderAnotherKey`).
 */
export async function rotateMasterKey(db: Db, from: SecretBox, to: SecretBox): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const counts = await resealEvery(tx, from, to);
    // The key check value (decision 0053) moves with them: the old key no longer starts an instance.
    await resealMasterKeyCheck(tx, from, to);
    return counts;
  });
}

/**
 * Re-seals the values still in the v1 format (AES-GCM bound to no row) as v2, under the same key, in one
 * transaction; the server runs it at start-up, after the migrations and the key check (decision 0037).
 * Idempotent, and safe when instances start together: the first takes an advisory lock and converts, the
 * others wait for it and find nothing left. Returns how many values of each kind it re-sealed.
 */
export async function upgradeSealedValues(db: Db, box: SecretBox): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${UPGRADE_LOCK_KEY})`);
    return resealEvery(tx, box, box, (c) => sql`and ${c.sealed} not like ${`${SEALED_VERSION}.%`}`);
  });
}

/**
 * Opens one stored value of each kind with `box`: the kinds it cannot open (a server started with another
 * master key than the one its secrets were sealed under would answer 500 to every signature, 2FA sign-in
 * and webhook delivery). Empty when the key fits, or nothing is sealed yet. A value still in the v1 format
 * counts as opened when the key opens it (the upgrade re-seals it next).
 */
export async function sealedUnderAnotherKey(db: Db, box: SecretBox): Promise<string[]> {
  const refused: string[] = [];
  for (const c of Object.values(SEALED_COLUMNS)) {
    const [sample] = await sealedRows(db, c, sql`limit 1`);
    if (!sample) continue;
    try {
      box.reseal(sample.sealed, sealedAt(c.sealed, sample.id));
    } catch {
      refused.push(c.label);
    }
  }
  return refused;
}
