import { isNotNull, sql } from "drizzle-orm";
import { tables, type Db } from "@licensing/db";
import { rowsOf } from "../sql-rows.ts";
import type { SecretBox } from "./secret-box.ts";

/** Every column that holds a value sealed under the master key: the one list rotation and the check read. */
const SEALED = {
  signingKeys: {
    label: "signing keys",
    id: tables.signingKeys.id,
    sealed: tables.signingKeys.privateKeySealed,
  },
  totpSecrets: { label: "TOTP secrets", id: tables.users.id, sealed: tables.users.totpSecret },
  webhookSecrets: {
    label: "webhook secrets",
    id: tables.webhookEndpoints.id,
    sealed: tables.webhookEndpoints.secretSealed,
  },
} as const;
type Sealed = (typeof SEALED)[keyof typeof SEALED];

export type RotationResult = Record<keyof typeof SEALED, number>;

const sealedRows = (db: Pick<Db, "execute">, c: Sealed, extra = sql``) =>
  db
    .execute(
      sql`select ${c.id} as id, ${c.sealed} as sealed from ${c.sealed.table} where ${isNotNull(c.sealed)} ${extra}`,
    )
    .then(rowsOf<{ id: string; sealed: string }>);

/**
 * Re-seals every value sealed under the master key (signing private keys, TOTP secrets, webhook
 * endpoint secrets) from `from` to `to`, in one transaction: either all of them move to the new key or none
 * does. Each value is opened with the new key before the commit, so a wrong key never leaves the database
 * half rotated. Run it with every server stopped: a server still holding the old key cannot open what it
 * seals afterwards (and refuses to start, see `sealedUnderAnotherKey`).
 */
export async function rotateMasterKey(db: Db, from: SecretBox, to: SecretBox): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const reseal = (sealed: string) => {
      const resealed = to.seal(from.open(sealed));
      to.open(resealed);
      return resealed;
    };
    const counts = {} as RotationResult;
    for (const [kind, c] of Object.entries(SEALED) as [keyof typeof SEALED, Sealed][]) {
      const rows = await sealedRows(tx, c, sql`for update`);
      for (const row of rows)
        await tx.execute(
          sql`update ${c.sealed.table} set ${sql.identifier(c.sealed.name)} = ${reseal(row.sealed)} where ${c.id} = ${row.id}`,
        );
      counts[kind] = rows.length;
    }
    return counts;
  });
}

/**
 * Opens one stored value of each kind with `box`: the kinds it cannot open (a server started with another
 * master key than the one its secrets were sealed under would answer 500 to every signature, 2FA sign-in
 * and webhook delivery). Empty when the key fits, or nothing is sealed yet.
 */
export async function sealedUnderAnotherKey(db: Db, box: SecretBox): Promise<string[]> {
  const refused: string[] = [];
  for (const c of Object.values(SEALED)) {
    const [sample] = await sealedRows(db, c, sql`limit 1`);
    if (!sample) continue;
    try {
      box.open(sample.sealed);
    } catch {
      refused.push(c.label);
    }
  }
  return refused;
}
