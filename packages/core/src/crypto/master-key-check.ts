import { eq, sql } from "drizzle-orm";
import { tables, type Db, type Tx } from "@licensing/db";
import { sealedAt } from "./sealed-columns.ts";
import { SealedValueError, type SecretBox } from "./secret-box.ts";

const CHECK_ID = "master";
/** What the check value holds: opening it proves the key, the text proves it is the value we wrote. */
const CHECK_PLAINTEXT = "licensing-service master key check";
const checkAt = sealedAt(tables.masterKeyCheck.checkValue, CHECK_ID);

/** `written`: this start stored the check value; `matches`: the key opens the one stored; `mismatch`: it does not. */
export type MasterKeyCheck = "written" | "matches" | "mismatch";

const opens = (box: SecretBox, sealed: string) => {
  try {
    return box.open(sealed, checkAt).toString("utf8") === CHECK_PLAINTEXT;
  } catch (error) {
    if (error instanceof SealedValueError) return false;
    throw error;
  }
};

/**
 * Compares `box`'s master key with the check value stored in the database, storing one under this key
 * when there is none (decision 0053). Safe when instances start together: the insert does nothing when
 * another instance's value got there first, and the value read back decides, so of two instances with
 * different keys on an empty database exactly one starts. The caller checks first that the sealed values
 * already stored open with this key (`sealedUnderAnotherKey`), so an upgraded database gets its check value
 * only from the key its secrets are under.
 */
export async function checkMasterKey(db: Db, box: SecretBox, now: Date): Promise<MasterKeyCheck> {
  const table = tables.masterKeyCheck;
  const inserted = await db
    .insert(table)
    .values({ id: CHECK_ID, checkValue: box.seal(CHECK_PLAINTEXT, checkAt), createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: table.id });
  if (inserted.length > 0) return "written";
  const [stored] = await db
    .select({ checkValue: table.checkValue })
    .from(table)
    .where(eq(table.id, CHECK_ID));
  return stored && opens(box, stored.checkValue) ? "matches" : "mismatch";
}

/**
 * The master key rotation's part: re-seals the check value from `from` to `to` inside the rotation's
 * transaction (a SealedValueError when `from` does not open it, which rolls the rotation back), or
 * stores one under `to` when the database has none yet.
 */
export async function resealMasterKeyCheck(tx: Tx, from: SecretBox, to: SecretBox): Promise<void> {
  const table = tables.masterKeyCheck;
  const [stored] = await tx
    .select({ checkValue: table.checkValue })
    .from(table)
    .where(eq(table.id, CHECK_ID))
    .for("update");
  if (stored) {
    const resealed = from.reseal(stored.checkValue, checkAt, to);
    if (!opens(to, resealed))
      throw new SealedValueError("The master key check value does not hold what it should");
    await tx
      .update(table)
      .set({ checkValue: resealed, updatedAt: sql`now()` })
      .where(eq(table.id, CHECK_ID));
  } else {
    await tx.insert(table).values({
      id: CHECK_ID,
      checkValue: to.seal(CHECK_PLAINTEXT, checkAt),
      createdAt: sql`now()`,
      updatedAt: sql`now()`,
    });
  }
}
