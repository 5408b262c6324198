import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { LicenseFile } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { certificateOf } from "../templates/key-chain.ts";
import { loadLicense } from "./load.ts";

/**
 * The license file (`<licenseKey>.lic`): the current token, the public key that verifies it and, when that
 * key is not the template's root, the root's certificate of it (decision 0049), ended if it was retired.
 */
export async function licenseFile(deps: Deps, actor: Actor, licenseId: string): Promise<LicenseFile> {
  const { license } = await loadLicense(deps.db, actor, licenseId, "viewer");
  const [key] = await deps.db
    .select()
    .from(tables.signingKeys)
    .where(eq(tables.signingKeys.id, license.signingKeyId));
  const certificate = await certificateOf(deps, deps.db, key!);
  return {
    licenseKey: license.licenseKey,
    token: license.token,
    publicKey: key!.publicKeyHex,
    ...(certificate === null ? {} : { certificate }),
  };
}

/** GET /licenses/{id}/public-key: the hex public key of the key that signed the current token. */
export async function licensePublicKey(deps: Deps, actor: Actor, licenseId: string) {
  const { publicKey } = await licenseFile(deps, actor, licenseId);
  return { publicKey };
}
