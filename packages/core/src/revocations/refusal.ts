import type { Executor, LicenseRow } from "@licensing/db";
import { unixSeconds } from "../crypto/license-token.ts";
import { signRevocation } from "../crypto/signed-documents.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { documentSigner } from "../templates/key-chain.ts";
import { activeSigningKey } from "../templates/signing-keys.ts";

/** What the refusal of a client call needs to know of its license. */
export type RefusedLicense = Pick<
  LicenseRow,
  "id" | "templateId" | "status" | "expiresAt" | "revocation" | "revokedAt"
>;

/**
 * The revocation of a license (decision 0049): `{lid, status: "Revoked", revokedAt, iat}` signed by the
 * template's Active key, its certificate in the header unless it is the root, so a program that knows only
 * the root verifies it.
 */
export async function revocationOf(deps: Deps, executor: Executor, license: RefusedLicense): Promise<string> {
  const key = await activeSigningKey(executor, license.templateId);
  return signRevocation(await documentSigner(deps, executor, key), {
    lid: license.id,
    status: "Revoked",
    revokedAt: unixSeconds(license.revokedAt ?? deps.clock.now()),
    iat: unixSeconds(deps.clock.now()),
  });
}

/**
 * Refuses a client call (activation, heartbeat) for a license that is not live. A revoked license with
 * `immediate` revocation is 403 `license.revoked` carrying its signed revocation; any other (suspended,
 * expired, revoked gracefully: the spec's rule 5) is `license.not_active`, as before.
 */
export async function refuseNotLive(deps: Deps, executor: Executor, license: RefusedLicense): Promise<never> {
  const status = effectiveStatus(license, deps.clock.now());
  if (status === "Revoked" && license.revocation === "immediate") {
    return fail("license.revoked", "The license was revoked", {
      details: { revocation: await revocationOf(deps, executor, license) },
    });
  }
  return fail("license.not_active", `The license is ${status}`);
}
