import { and, eq, gt, isNull, sql, type SQL } from "drizzle-orm";
import { tables, type LeaseRow } from "@licensing/db";

/**
 * The one home of "this lease is live" (decision 0048): `now < expiresAt`, not released, not lapsed. No
 * job keeps it: every reader compares with its own `now`. The forms below are built side by side and
 * `live.test.ts` checks that they agree.
 */
export const isLeaseLive = (lease: Pick<LeaseRow, "expiresAt" | "releasedAt" | "lapsed">, now: Date) =>
  lease.releasedAt === null && !lease.lapsed && lease.expiresAt > now;

/** `isLeaseLive` for raw SQL over a leases alias (e.g. `s`), `now` a timestamptz expression. */
export const leaseLiveSql = (alias: string, now: SQL): SQL =>
  sql`${sql.raw(alias)}.released_at is null and not ${sql.raw(alias)}.lapsed and ${sql.raw(alias)}.expires_at > ${now}`;

const s = tables.leases;

/** A span that is neither released nor lapsed: live, or expired and not yet noticed (the partial indexes' rows). */
export const openCondition = (): SQL => and(isNull(s.releasedAt), eq(s.lapsed, false))!;

/** `isLeaseLive` as a query-builder condition on the leases table. */
export const leaseLiveCondition = (now: Date): SQL => and(openCondition(), gt(s.expiresAt, now))!;
