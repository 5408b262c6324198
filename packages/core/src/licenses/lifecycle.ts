import { eq } from "drizzle-orm";
import { tables, type LicenseRow, type Tx } from "@licensing/db";
import type { LicenseResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { endLeases } from "../leases/pool.ts";
import { publishEvents } from "../outbox/publish.ts";
import { loadLicense } from "./load.ts";
import { effectiveStatus, licenseResponse } from "./mappers.ts";

/** GET /licenses/{id}: Viewer on the license's company. */
export async function getLicense(deps: Deps, actor: Actor, licenseId: string): Promise<LicenseResponse> {
  const { license } = await loadLicense(deps.db, actor, licenseId, "viewer");
  return licenseResponse(deps.db, license, deps.clock.now());
}

async function update(tx: Tx, licenseId: string, changes: Partial<LicenseRow>) {
  const [updated] = await tx
    .update(tables.licenses)
    .set(changes)
    .where(eq(tables.licenses.id, licenseId))
    .returning();
  return updated!;
}

/**
 * POST /licenses/{id}/revoke: any state but Revoked becomes Revoked; event license.revoked. Its live
 * leases end with it (decision 0048).
 */
export async function revokeLicense(
  deps: Deps,
  actor: Actor,
  licenseId: string,
  input: { reason?: string | null | undefined },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const { license } = await loadLicense(tx, actor, licenseId, "admin", { forUpdate: true });
    if (license.status === "Revoked") fail("license.already_revoked", "The license is already revoked");
    const now = deps.clock.now();
    const reason = input.reason || null;
    await update(tx, licenseId, {
      status: "Revoked",
      revokedAt: now,
      revocationReason: reason,
      updatedAt: now,
    });
    await endLeases(tx, now, { licenseId }, "license.revoked");
    await publishEvents(tx, deps.clock, [
      {
        type: "license.revoked",
        data: { licenseId, licenseKey: license.licenseKey, reason, revokedAt: now.toISOString() },
      },
    ]);
    await recordAudit(tx, deps.clock, actor, {
      action: "license.revoked",
      entityType: "license",
      entityId: licenseId,
      meta: { licenseKey: license.licenseKey, reason },
    });
  });
}

/**
 * POST /licenses/{id}/suspend and /resume (docs/behaviour.md): Active ↔ Suspended, Admin on the
 * company. A suspended license is not active for activation, heartbeat and leases, and its live leases
 * end (a resume brings none back: each machine acquires again).
 */
export async function setLicenseSuspended(
  deps: Deps,
  actor: Actor,
  licenseId: string,
  suspended: boolean,
): Promise<LicenseResponse> {
  const updated = await deps.db.transaction(async (tx) => {
    const { license } = await loadLicense(tx, actor, licenseId, "admin", { forUpdate: true });
    const now = deps.clock.now();
    const from = suspended ? "Active" : "Suspended";
    if (effectiveStatus(license, now) !== from) {
      fail(
        "license.invalid_transition",
        `Only an ${from} license can be ${suspended ? "suspended" : "resumed"}; this one is ${effectiveStatus(license, now)}`,
      );
    }
    const row = await update(tx, licenseId, { status: suspended ? "Suspended" : "Active", updatedAt: now });
    if (suspended) await endLeases(tx, now, { licenseId }, "license.suspended");
    await recordAudit(tx, deps.clock, actor, {
      action: suspended ? "license.suspended" : "license.resumed",
      entityType: "license",
      entityId: licenseId,
      meta: { licenseKey: license.licenseKey },
    });
    return row;
  });
  return licenseResponse(deps.db, updated, deps.clock.now());
}
