import { and, desc, eq } from "drizzle-orm";
import { tables, type ActivationRow } from "@licensing/db";
import type { ActivationResponse, HeartbeatRecordResponse } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { loadLicense } from "../licenses/load.ts";
import { deactivateActivations } from "./deactivate-activations.ts";

const toActivationResponse = (a: ActivationRow): ActivationResponse => ({
  id: a.id,
  hwFingerprint: a.hwFingerprint,
  machineName: a.machineName,
  status: a.status,
  activatedAt: a.activatedAt.toISOString(),
  lastHeartbeatAt: a.lastHeartbeatAt?.toISOString() ?? null,
  deactivatedAt: a.deactivatedAt?.toISOString() ?? null,
});

/** GET /licenses/{id}/activations: Viewer; active ones first, newest first. */
export async function listActivations(
  deps: Deps,
  actor: Actor,
  licenseId: string,
): Promise<ActivationResponse[]> {
  await loadLicense(deps.db, actor, licenseId, "viewer");
  const a = tables.activations;
  const rows = await deps.db
    .select()
    .from(a)
    .where(eq(a.licenseId, licenseId))
    .orderBy(a.status, desc(a.activatedAt), desc(a.id));
  return rows.map(toActivationResponse);
}

/** GET /licenses/{id}/heartbeats?limit=: Viewer; the latest `limit` heartbeats. */
export async function listHeartbeats(
  deps: Deps,
  actor: Actor,
  licenseId: string,
  limit: number,
): Promise<HeartbeatRecordResponse[]> {
  await loadLicense(deps.db, actor, licenseId, "viewer");
  const h = tables.heartbeatRecords;
  const rows = await deps.db
    .select({ id: h.id, activationId: h.activationId, occurredAt: h.occurredAt })
    .from(h)
    .where(eq(h.licenseId, licenseId))
    .orderBy(desc(h.occurredAt), desc(h.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, occurredAt: r.occurredAt.toISOString() }));
}

/**
 * POST /licenses/{id}/activations/{activationId}/reset: Admin; frees the seat. Resetting an inactive
 * activation succeeds again; an activation of another license is `activation.not_found`.
 */
export async function resetActivation(deps: Deps, actor: Actor, licenseId: string, activationId: string) {
  await deps.db.transaction(async (tx) => {
    const { license } = await loadLicense(tx, actor, licenseId, "admin", { forUpdate: true });
    const [activation] = await tx
      .select({ id: tables.activations.id })
      .from(tables.activations)
      .where(and(eq(tables.activations.id, activationId), eq(tables.activations.licenseId, licenseId)));
    if (!activation) fail("activation.not_found", `License ${licenseId} has no activation ${activationId}`);
    await deactivateActivations(
      tx,
      deps,
      license,
      { actorEmail: actor.email, reason: "panel.reset", request: actor.request },
      activationId,
    );
  });
}
