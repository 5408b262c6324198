import { and, asc, desc, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { LicenseLeaseResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { loadLicense } from "../licenses/load.ts";
import { authorizeThroughCompany, findCompany } from "../policy/index.ts";
import { leaseLiveCondition } from "./live.ts";

const s = tables.leases;
const a = tables.activations;

/** GET /licenses/{id}/leases: Viewer; the license's live leases, oldest first, with their machines. */
export async function listLeases(
  deps: Deps,
  actor: Actor,
  licenseId: string,
): Promise<LicenseLeaseResponse[]> {
  await loadLicense(deps.reads, actor, licenseId, "viewer");
  const now = deps.clock.now();
  const rows = await deps.reads
    .select({
      leaseId: s.id,
      activationId: s.activationId,
      machineName: a.machineName,
      acquiredAt: s.acquiredAt,
      expiresAt: s.expiresAt,
      borrowedUntil: s.borrowedUntil,
    })
    .from(s)
    .innerJoin(a, eq(a.id, s.activationId))
    .where(and(eq(s.licenseId, licenseId), leaseLiveCondition(now)))
    .orderBy(asc(s.acquiredAt), asc(s.id));
  return rows.map((row) => ({
    ...row,
    acquiredAt: row.acquiredAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    // A borrow that has run out is history: the lease was renewed past it.
    borrowedUntil: row.borrowedUntil && row.borrowedUntil > now ? row.borrowedUntil.toISOString() : null,
  }));
}

/**
 * DELETE /leases/{leaseId}: Admin of the license's company; the lease ends now (live or expired, so it is
 * not brought back) and its holder's next renew is refused with `lease.released`. Audited when it ended
 * something; a lease released already succeeds again.
 */
export async function forceReleaseLease(deps: Deps, actor: Actor, leaseId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [span] = await tx
      .select({
        span: s.span,
        licenseId: s.licenseId,
        activationId: s.activationId,
        releasedAt: s.releasedAt,
        companyId: tables.licenses.companyId,
      })
      .from(s)
      .innerJoin(tables.licenses, eq(tables.licenses.id, s.licenseId))
      .where(eq(s.id, leaseId))
      .orderBy(desc(s.span))
      .limit(1);
    const company = span && (await findCompany(tx, span.companyId));
    authorizeThroughCompany(actor, company, "admin", {
      notFound: ["lease.not_found", `No lease with id ${leaseId} is visible to you`],
      forbidden: "Releasing a lease needs the admin role on the license's company",
    });
    if (span!.releasedAt !== null) return;
    const now = deps.clock.now();
    await tx
      .update(s)
      .set({ releasedAt: now, releaseReason: "panel" })
      .where(and(eq(s.id, leaseId), eq(s.span, span!.span)));
    await recordAudit(tx, deps.clock, actor, {
      action: "lease.force_released",
      entityType: "lease",
      entityId: leaseId,
      meta: { licenseId: span!.licenseId, activationId: span!.activationId },
    });
  });
}
