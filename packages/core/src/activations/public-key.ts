import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";

/** GET /client/public-key/{licenseKey}: the key that verifies the license's token and markers. */
export async function clientPublicKey(deps: Deps, rawKey: string): Promise<{ publicKey: string }> {
  const licenseKey = normalizeLicenseKey(rawKey);
  const [row] = licenseKey
    ? await deps.db
        .select({ publicKey: tables.signingKeys.publicKeyHex })
        .from(tables.licenses)
        .innerJoin(tables.signingKeys, eq(tables.signingKeys.id, tables.licenses.signingKeyId))
        .where(eq(tables.licenses.licenseKey, licenseKey))
    : [];
  return row ?? fail("license.not_found", "No license with this key");
}
