import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { ActivationRequest } from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { deactivateActivations } from "./deactivate-activations.ts";

/**
 * POST /client/deactivate (the HMAC is checked by the caller): frees the seat; deactivating an
 * activation that is already inactive succeeds again. An activation of another license is a 404.
 */
export async function deactivate(deps: Deps, input: ActivationRequest, request: RequestInfo): Promise<void> {
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  await deps.db.transaction(async (tx) => {
    const [license] = licenseKey
      ? await tx.select().from(tables.licenses).where(eq(tables.licenses.licenseKey, licenseKey))
      : [];
    if (!license) return fail("license.not_found", "No license with this key");
    const dropped = await deactivateActivations(
      tx,
      deps,
      license,
      { actorEmail: null, reason: "client.deactivate", request },
      input.activationId,
    );
    if (dropped.length > 0) return;
    const [existing] = await tx
      .select({ id: tables.activations.id })
      .from(tables.activations)
      .where(
        and(eq(tables.activations.id, input.activationId), eq(tables.activations.licenseId, license.id)),
      );
    if (!existing) fail("activation.not_found", "The license has no such activation");
  });
}
