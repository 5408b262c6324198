import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The master key from LICENSING_MASTER_KEY, or a development key generated once under DATA_DIR.
 * Losing it makes stored secrets (signing keys, TOTP secrets) unreadable.
 */
export function loadMasterKey(
  configured: string | undefined,
  dataDir: string,
): { key: Buffer; generated: boolean } {
  if (configured) return { key: Buffer.from(configured, "base64"), generated: false };
  const file = join(dataDir, "master.key");
  if (existsSync(file))
    return { key: Buffer.from(readFileSync(file, "utf8").trim(), "base64"), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64"), { mode: 0o600 });
  return { key, generated: true };
}
