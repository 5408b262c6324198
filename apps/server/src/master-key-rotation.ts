import { randomBytes } from "node:crypto";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSecretBox, rotateMasterKey, type RotationResult } from "@licensing/core";
import { createDatabase, type Database } from "@licensing/db";
import type { Env } from "./env.ts";
import { loadMasterKey } from "./master-key.ts";

export interface RotationOutcome extends RotationResult {
  newKey: string;
  /** Where the new key was written (the development key file), or null when the environment holds it. */
  keyFile: string | null;
}

/** A 32-byte key in base64, as LICENSING_MASTER_KEY takes it; anything else is refused. */
export function parseMasterKey(text: string): Buffer {
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== 32 || key.toString("base64") !== text.trim()) {
    throw new Error("The new master key must be 32 bytes, base64-encoded (openssl rand -base64 32)");
  }
  return key;
}

export const generateMasterKey = () => randomBytes(32).toString("base64");

/**
 * Moves every sealed secret from the current master key (LICENSING_MASTER_KEY, or the development key
 * under DATA_DIR) to `newKey`. With the development key, the file is replaced after the commit and the
 * old one kept beside it as `master.key.old`.
 */
export async function rotateMasterKeyOf(env: Env, newKey: Buffer, open?: Database): Promise<RotationOutcome> {
  const keyFile = join(env.DATA_DIR, "master.key");
  // Checked first: loading the key would otherwise generate one, and rotate away from nothing.
  if (!env.LICENSING_MASTER_KEY && !existsSync(keyFile))
    throw new Error(`No master key: neither LICENSING_MASTER_KEY nor ${keyFile}`);
  const current = loadMasterKey(env.LICENSING_MASTER_KEY, env.DATA_DIR);
  if (current.key.equals(newKey)) throw new Error("The new master key is the current one");
  const database = open ?? openDatabase(env);
  let result: RotationResult;
  try {
    await database.migrate();
    result = await rotateMasterKey(database.db, createSecretBox(current.key), createSecretBox(newKey));
  } finally {
    if (!open) await database.close();
  }
  if (env.LICENSING_MASTER_KEY) return { ...result, newKey: newKey.toString("base64"), keyFile: null };
  renameSync(keyFile, `${keyFile}.old`);
  writeFileSync(keyFile, newKey.toString("base64"), { mode: 0o600 });
  return { ...result, newKey: newKey.toString("base64"), keyFile };
}

const openDatabase = (env: Env) =>
  createDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : join(env.DATA_DIR, "pglite"),
  });
