import { and, eq, isNull, sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { LeaseRequest } from "@licensing/contracts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { loadFloatingLicense, padUnknownKey } from "./license.ts";

/**
 * POST /client/leases/release (the HMAC is checked by the caller): the lease ends now and its seat is
 * free; whatever the license's status, and again for a lease released already (idempotent). An expired
 * lease is released too, so it is not brought back by a late renew.
 */
export function releaseLease(deps: Deps, input: LeaseRequest): Promise<void> {
  return padUnknownKey(deps, () => release(deps, input));
}

async function release(deps: Deps, input: LeaseRequest): Promise<void> {
  const license = await loadFloatingLicense(deps, deps.db, input.licenseKey, { anyStatus: true });
  const s = tables.leases;
  const released = await deps.db
    .update(s)
    .set({ releasedAt: deps.clock.now(), releaseReason: "client" })
    .where(
      and(
        eq(s.id, input.leaseId),
        eq(s.licenseId, license.id),
        isNull(s.releasedAt),
        // The latest span: the earlier ones have lapsed and are history.
        eq(s.span, sql`(select max(span) from leases where id = ${input.leaseId})`),
      ),
    )
    .returning({ id: s.id });
  if (released.length > 0) return;
  const [known] = await deps.db
    .select({ id: s.id })
    .from(s)
    .where(and(eq(s.id, input.leaseId), eq(s.licenseId, license.id)))
    .limit(1);
  if (!known) fail("lease.not_found", "The license has no such lease");
}
