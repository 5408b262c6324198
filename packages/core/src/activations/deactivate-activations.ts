import { and, eq, sql, type SQL } from "drizzle-orm";
import { tables, type Tx } from "@licensing/db";
import { recordAudit } from "../audit/record.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { endLeases } from "../leases/pool.ts";
import { publishEvents } from "../outbox/publish.ts";

export interface DeactivationCause {
  /** Who did it: the panel user, or null for the client itself. */
  actorEmail: string | null;
  /** `client.deactivate`, `panel.reset`, `license.transferred`, `license.rebound`. */
  reason: string;
  request: RequestInfo;
}

/**
 * Deactivates the license's active activations (all of them, or the one named), freeing their seats and
 * ending their live leases (a floating license's seats), with a license.deactivated event and an audit row
 * each, in the caller's transaction.
 * Returns the ids it deactivated; none when they were inactive already (deactivation is idempotent).
 *
 * It locks the license row first, as activation does (which takes the seat under that lock), so the
 * seat counter moves in step with the activations and the two never wait on each other in a cycle.
 */
export async function deactivateActivations(
  tx: Tx,
  deps: Deps,
  license: { id: string; licenseKey: string },
  cause: DeactivationCause,
  activationId?: string,
): Promise<string[]> {
  const l = tables.licenses;
  await tx.select({ id: l.id }).from(l).where(eq(l.id, license.id)).for("update");
  const a = tables.activations;
  const conditions: SQL[] = [eq(a.licenseId, license.id), eq(a.status, "active")];
  if (activationId) conditions.push(eq(a.id, activationId));
  const dropped = await tx
    .update(a)
    .set({ status: "deactivated", deactivatedAt: deps.clock.now() })
    .where(and(...conditions))
    .returning({ id: a.id });
  if (dropped.length === 0) return [];
  await endLeases(tx, deps.clock.now(), { activationIds: dropped.map((d) => d.id) }, cause.reason);
  await tx
    .update(l)
    .set({ liveSeats: sql`${l.liveSeats} - ${dropped.length}` })
    .where(eq(l.id, license.id));
  await publishEvents(
    tx,
    deps.clock,
    dropped.map((d) => ({
      type: "license.deactivated" as const,
      data: { licenseId: license.id, licenseKey: license.licenseKey, activationId: d.id },
    })),
  );
  await recordAudit(
    tx,
    deps.clock,
    { email: cause.actorEmail, request: cause.request },
    ...dropped.map((d) => ({
      action: "license.deactivated",
      entityType: "activation",
      entityId: d.id,
      meta: { licenseId: license.id, reason: cause.reason },
    })),
  );
  return dropped.map((d) => d.id);
}
