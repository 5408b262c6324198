import { eq, isNotNull } from "drizzle-orm";
import { tables, type Db } from "@licensing/db";
import type { SecretBox } from "./secret-box.ts";

export interface RotationResult {
  signingKeys: number;
  totpSecrets: number;
  webhookSecrets: number;
}

/**
 * Re-seals every value sealed under the master key (signing private keys, TOTP secrets, webhook
 * endpoint secrets) from `from` to
 * `to`, in one transaction: either all of them move to the new key or none does. Each value is opened
 * with the new key before the commit, so a wrong key never leaves the database half rotated. Run it with
 * every server stopped: a server still holding the old key cannot open what it seals afterwards.
 */
export async function rotateMasterKey(db: Db, from: SecretBox, to: SecretBox): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const reseal = (sealed: string) => {
      const resealed = to.seal(from.open(sealed));
      to.open(resealed);
      return resealed;
    };
    const keys = await tx
      .select({ id: tables.signingKeys.id, sealed: tables.signingKeys.privateKeySealed })
      .from(tables.signingKeys)
      .for("update");
    for (const key of keys) {
      await tx
        .update(tables.signingKeys)
        .set({ privateKeySealed: reseal(key.sealed) })
        .where(eq(tables.signingKeys.id, key.id));
    }
    const users = await tx
      .select({ id: tables.users.id, sealed: tables.users.totpSecret })
      .from(tables.users)
      .where(isNotNull(tables.users.totpSecret))
      .for("update");
    for (const user of users) {
      await tx
        .update(tables.users)
        .set({ totpSecret: reseal(user.sealed!) })
        .where(eq(tables.users.id, user.id));
    }
    const endpoints = await tx
      .select({ id: tables.webhookEndpoints.id, sealed: tables.webhookEndpoints.secretSealed })
      .from(tables.webhookEndpoints)
      .for("update");
    for (const endpoint of endpoints) {
      await tx
        .update(tables.webhookEndpoints)
        .set({ secretSealed: reseal(endpoint.sealed) })
        .where(eq(tables.webhookEndpoints.id, endpoint.id));
    }
    return { signingKeys: keys.length, totpSecrets: users.length, webhookSecrets: endpoints.length };
  });
}
