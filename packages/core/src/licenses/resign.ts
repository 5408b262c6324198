import { eq } from "drizzle-orm";
import { tables, type LicenseRow, type Tx } from "@licensing/db";
import type {
  DomainEvent,
  HwBinding,
  LicenseResponse,
  LicenseTokenConfig,
  LicenseTransferResponse,
  RebindLicenseRequest,
} from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { deactivateActivations } from "../activations/deactivate-activations.ts";
import { publishEvents } from "../outbox/publish.ts";
import { loadTemplate } from "../templates/load.ts";
import { certificateOf } from "../templates/key-chain.ts";
import { activeSigningKey } from "../templates/signing-keys.ts";
import { refuseFingerprintWithoutBinding } from "./issue-terms.ts";
import { authorizeIssuingCompany, loadLicense } from "./load.ts";
import { licenseResponse } from "./mappers.ts";
import { signLicense } from "./sign.ts";

/**
 * Signs version n+1 of a license with the template's Active key (the same key unless it was rotated
 * since), stores it with `changes`, and deactivates every active activation.
 */
async function resign(
  tx: Tx,
  deps: Deps,
  actor: Actor,
  license: LicenseRow,
  changes: Partial<LicenseRow>,
  reason: "license.transferred" | "license.rebound",
) {
  const next = { ...license, ...changes, currentVersion: license.currentVersion + 1 };
  const template = await loadTemplate(tx, license.templateId);
  const key = await activeSigningKey(tx, license.templateId);
  const token = signLicense(deps, key, {
    ...next,
    productCode: template.productCode,
    config: JSON.parse(license.config) as LicenseTokenConfig,
  });
  const [updated] = await tx
    .update(tables.licenses)
    .set({
      ...changes,
      currentVersion: next.currentVersion,
      token,
      signingKeyId: key.id,
      updatedAt: deps.clock.now(),
    })
    .where(eq(tables.licenses.id, license.id))
    .returning();
  const deactivated = await deactivateActivations(tx, deps, license, {
    actorEmail: actor.email,
    reason,
    request: actor.request,
  });
  const certificate = await certificateOf(deps, tx, key);
  return {
    license: updated!,
    publicKey: key.publicKeyHex,
    ...(certificate === null ? {} : { certificate }),
    deactivated: deactivated.length,
  };
}

function assertNotRevoked(license: LicenseRow) {
  if (license.status === "Revoked")
    fail("license.invalid_transition", "A revoked license cannot be re-signed");
}

async function finish(
  tx: Tx,
  deps: Deps,
  actor: Actor,
  event: DomainEvent,
  action: string,
  licenseId: string,
) {
  await publishEvents(tx, deps.clock, [event]);
  await recordAudit(tx, deps.clock, actor, {
    action,
    entityType: "license",
    entityId: licenseId,
    meta: event.data,
  });
}

/** POST /licenses/{id}/transfer: Admin on both companies; same key, config kept, new version. */
export async function transferLicense(
  deps: Deps,
  actor: Actor,
  licenseId: string,
  input: { newCompanyId: string },
): Promise<LicenseTransferResponse> {
  return deps.db.transaction(async (tx) => {
    const { license } = await loadLicense(tx, actor, licenseId, "admin", { forUpdate: true });
    assertNotRevoked(license);
    if (license.companyId === input.newCompanyId) {
      fail("license.same_company", "The license already belongs to this company");
    }
    await authorizeIssuingCompany(tx, actor, input.newCompanyId);
    const result = await resign(
      tx,
      deps,
      actor,
      license,
      { companyId: input.newCompanyId },
      "license.transferred",
    );
    const data = {
      licenseId,
      licenseKey: license.licenseKey,
      fromCompanyId: license.companyId,
      toCompanyId: input.newCompanyId,
      currentVersion: result.license.currentVersion,
    };
    await finish(tx, deps, actor, { type: "license.transferred", data }, "license.transferred", licenseId);
    return {
      licenseId,
      licenseKey: license.licenseKey,
      companyId: input.newCompanyId,
      currentVersion: result.license.currentVersion,
      token: result.license.token,
      publicKey: result.publicKey,
      ...(result.certificate === undefined ? {} : { certificate: result.certificate }),
      deactivatedActivations: result.deactivated,
    };
  });
}

/** The spec's rebind rules 1–3 (§4): the resulting binding mode. */
export function reboundMode(current: HwBinding, input: RebindLicenseRequest): HwBinding {
  if (input.hwBinding) return input.hwBinding;
  if (input.hwFingerprint) return "fixed";
  return current === "fixed" ? "firstActivation" : current;
}

/** POST /licenses/{id}/rebind: Admin; new binding, new version, every activation deactivated. */
export async function rebindLicense(
  deps: Deps,
  actor: Actor,
  licenseId: string,
  input: RebindLicenseRequest,
): Promise<LicenseResponse> {
  const updated = await deps.db.transaction(async (tx) => {
    const { license } = await loadLicense(tx, actor, licenseId, "admin", { forUpdate: true });
    assertNotRevoked(license);
    const hwBinding = reboundMode(license.hwBinding, input);
    const hwFingerprint = input.hwFingerprint ?? null;
    refuseFingerprintWithoutBinding(hwBinding, hwFingerprint);
    const result = await resign(tx, deps, actor, license, { hwBinding, hwFingerprint }, "license.rebound");
    const data = {
      licenseId,
      licenseKey: license.licenseKey,
      hwBinding,
      hwFingerprint,
      currentVersion: result.license.currentVersion,
      reason: input.reason || null,
    };
    await finish(tx, deps, actor, { type: "license.rebound", data }, "license.rebound", licenseId);
    return result.license;
  });
  return licenseResponse(deps.db, updated, deps.clock.now());
}
