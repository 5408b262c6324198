import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { tables, type ActivationRow } from "@licensing/db";
import type { ActivationHeal, ActivationResponse, HeartbeatRecordResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { loadLicense } from "../licenses/load.ts";
import { deactivateActivations } from "./deactivate-activations.ts";
import { countedNewDevices } from "./device-budget.ts";

const toActivationResponse = (a: ActivationRow, heals: ActivationHeal[]): ActivationResponse => ({
  id: a.id,
  hwFingerprint: a.hwFingerprint,
  machineName: a.machineName,
  status: a.status,
  mode: a.mode,
  activatedAt: a.activatedAt.toISOString(),
  lastHeartbeatAt: a.lastHeartbeatAt?.toISOString() ?? null,
  deactivatedAt: a.deactivatedAt?.toISOString() ?? null,
  componentKinds: a.components?.map((c) => c.kind) ?? [],
  newDevice: a.newDevice,
  heals,
});

/** GET /licenses/{id}/activations: Viewer; active ones first, newest first. */
export async function listActivations(
  deps: Deps,
  actor: Actor,
  licenseId: string,
): Promise<ActivationResponse[]> {
  await loadLicense(deps.reads, actor, licenseId, "viewer");
  const a = tables.activations;
  const rows = await deps.reads
    .select()
    .from(a)
    .where(eq(a.licenseId, licenseId))
    .orderBy(a.status, desc(a.activatedAt), desc(a.id));
  const heals = await healHistory(
    deps,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toActivationResponse(row, heals.get(row.id) ?? []));
}

/** The heals of activations, from their `activation.healed` audit rows (the audit log is their record). */
async function healHistory(deps: Deps, activationIds: string[]): Promise<Map<string, ActivationHeal[]>> {
  const heals = new Map<string, ActivationHeal[]>();
  if (activationIds.length === 0) return heals;
  const log = tables.auditLog;
  const rows = await deps.reads
    .select({ entityId: log.entityId, meta: log.meta, occurredAt: log.occurredAt })
    .from(log)
    .where(
      and(
        eq(log.entityType, "activation"),
        inArray(log.entityId, activationIds),
        eq(log.action, "activation.healed"),
      ),
    )
    .orderBy(asc(log.occurredAt), asc(log.id));
  for (const row of rows) {
    const meta = row.meta as { score?: number; changedKinds?: string[] };
    const list = heals.get(row.entityId!) ?? [];
    list.push({
      healedAt: row.occurredAt.toISOString(),
      score: meta.score ?? 0,
      changedKinds: meta.changedKinds ?? [],
    });
    heals.set(row.entityId!, list);
  }
  return heals;
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

/**
 * POST /licenses/{id}/device-budget/reset: Admin; the new devices counted so far stop counting (those
 * activated up to now), and the next refusal publishes again. Audited with how many it cleared.
 */
export async function resetDeviceBudget(deps: Deps, actor: Actor, licenseId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const { license } = await loadLicense(tx, actor, licenseId, "admin", { forUpdate: true });
    const now = deps.clock.now();
    const counted = (await countedNewDevices(tx, [license.id], now)).get(license.id);
    await tx
      .update(tables.licenses)
      .set({ deviceBudgetResetAt: now, deviceBudgetRefusedUntil: null, updatedAt: now })
      .where(eq(tables.licenses.id, license.id));
    await recordAudit(tx, deps.clock, actor, {
      action: "license.device_budget_reset",
      entityType: "license",
      entityId: license.id,
      meta: { licenseKey: license.licenseKey, cleared: counted?.used ?? 0 },
    });
  });
}
