import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { tables } from "@licensing/db";
import { recordAudit, SYSTEM_ACTOR } from "../audit/record.ts";
import type { Deps } from "../deps.ts";
import { publishEvents } from "../outbox/publish.ts";

/**
 * Moves Active licenses past expiresAt to Expired, with license.expired once each. Batches are claimed
 * with FOR UPDATE SKIP LOCKED, so instances sweeping at the same time share the work and never emit
 * twice. Returns how many licenses expired.
 */
export async function sweepExpiredLicenses(deps: Deps, batchSize = 500): Promise<number> {
  const l = tables.licenses;
  let total = 0;
  for (;;) {
    const expired = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const claimed = await tx
        .select({ id: l.id })
        .from(l)
        .where(and(eq(l.status, "Active"), lte(l.expiresAt, now)))
        .orderBy(asc(l.expiresAt))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      if (claimed.length === 0) return 0;
      const rows = await tx
        .update(l)
        .set({ status: "Expired", updatedAt: now })
        .where(
          inArray(
            l.id,
            claimed.map((c) => c.id),
          ),
        )
        .returning({ id: l.id, licenseKey: l.licenseKey, companyId: l.companyId, expiresAt: l.expiresAt });
      const events = rows.map((r) => ({
        type: "license.expired" as const,
        data: {
          licenseId: r.id,
          licenseKey: r.licenseKey,
          companyId: r.companyId,
          expiresAt: r.expiresAt.toISOString(),
        },
      }));
      await publishEvents(tx, deps.clock, events);
      await recordAudit(
        tx,
        deps.clock,
        SYSTEM_ACTOR,
        ...events.map((event) => ({
          action: "license.expired",
          entityType: "license",
          entityId: event.data.licenseId,
          meta: event.data,
        })),
      );
      return rows.length;
    });
    total += expired;
    if (expired < batchSize) return total;
  }
}
