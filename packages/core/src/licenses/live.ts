import { and, eq, gt, lte, sql, type SQL } from "drizzle-orm";
import { tables, type LicenseRow } from "@licensing/db";

/**
 * The one home of "this license is live": Active and not past its expiresAt. Activation, heartbeats,
 * search, the status callers see and the expiry sweeper all ask here, in TypeScript or in SQL; the
 * forms below are built side by side and `live.test.ts` checks that they agree.
 */
export const isLive = (license: Pick<LicenseRow, "status" | "expiresAt">, now: Date): boolean =>
  license.status === "Active" && license.expiresAt > now;

/** True for an Active license whose expiresAt has passed: Expired to callers, not yet to the sweeper. */
export const isPastExpiry = (license: Pick<LicenseRow, "status" | "expiresAt">, now: Date): boolean =>
  license.status === "Active" && license.expiresAt <= now;

/** `isLive` for raw SQL over a licenses alias (e.g. `l`), `now` a timestamptz expression. */
export const liveSql = (alias: string, now: SQL): SQL =>
  sql`${sql.raw(alias)}.status = 'Active' and ${sql.raw(alias)}.expires_at > ${now}`;

const l = tables.licenses;

/** `isLive` as a query-builder condition on the licenses table. */
export const liveCondition = (now: Date): SQL => and(eq(l.status, "Active"), gt(l.expiresAt, now))!;

/** `isPastExpiry` as a query-builder condition on the licenses table. */
export const pastExpiryCondition = (now: Date): SQL => and(eq(l.status, "Active"), lte(l.expiresAt, now))!;
