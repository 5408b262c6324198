import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { LicenseFile } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { loadLicense } from "./load.ts";

/** The license file (`<licenseKey>.lic`): the current token and the public key that verifies it. */
export async function licenseFile(deps: Deps, actor: Actor, licenseId: string): Promise<LicenseFile> {
  const { license } = await loadLicense(deps.db, actor, licenseId, "viewer");
  const [key] = await deps.db
    .select({ publicKeyHex: tables.signingKeys.publicKeyHex })
    .from(tables.signingKeys)
    .where(eq(tables.signingKeys.id, license.signingKeyId));
  return { licenseKey: license.licenseKey, token: license.token, publicKey: key!.publicKeyHex };
}

/** GET /licenses/{id}/public-key: the hex public key of the key that signed the current token. */
export async function licensePublicKey(deps: Deps, actor: Actor, licenseId: string) {
  const { publicKey } = await licenseFile(deps, actor, licenseId);
  return { publicKey };
}
