import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { activations } from "./activations.ts";
import { timestamptz } from "./columns.ts";
import { licenses } from "./licenses.ts";

/**
 * Leases of floating licenses (decision 0048): one row per span, an unbroken stretch during which a lease
 * held a seat. A lease is live while `now < expires_at`, it was not released and it has not lapsed; renewing
 * a live lease moves its span's `expires_at`, and renewing an expired one (the machine came back) opens the
 * lease's next span under the same id, so each row is one interval `[acquired_at, least(expires_at,
 * released_at))`: the per-day peak of live leases and the seconds a pool was full follow from the rows alone.
 */
export const leases = pgTable(
  "leases",
  {
    /** The lease id the client holds; the same for every span of the lease. */
    id: uuid("id").notNull(),
    /** 1 for the span the lease was acquired with, then one more each time it is renewed after expiring. */
    span: integer("span").notNull().default(1),
    licenseId: uuid("license_id")
      .notNull()
      .references(() => licenses.id),
    activationId: uuid("activation_id")
      .notNull()
      .references(() => activations.id),
    /**
     * The license's company and template, copied like an activation's (decision 0028) so usage analytics
     * read leases alone. A transfer deactivates every activation and so ends their leases: a live lease's
     * copies are never stale.
     */
    companyId: uuid("company_id").notNull(),
    templateId: uuid("template_id").notNull(),
    acquiredAt: timestamptz("acquired_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    /** The `until` of the latest borrow; the span is borrowed while it lies ahead. */
    borrowedUntil: timestamptz("borrowed_until"),
    /** Released by its holder, force-released from the panel, or ended with its activation or license. */
    releasedAt: timestamptz("released_at"),
    /** `client`, `panel`, `license.suspended`, `license.revoked`, or the deactivation's reason. */
    releaseReason: text("release_reason"),
    /**
     * An acquire found the span expired and counted its seat free: from then on only a renew that finds a
     * seat (under the license row's lock) brings the lease back, as a new span. Correctness needs nothing
     * else: liveness is `now < expires_at`, and this records that an acquire relied on it.
     */
    lapsed: boolean("lapsed").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.span] }),
    // The license's open leases (live, or expired and not yet lapsed): counted, lapsed and listed under
    // the license row's lock. Few rows per license, however long its history.
    index("leases_open_by_license")
      .on(t.licenseId)
      .where(sql`${t.releasedAt} is null and not ${t.lapsed}`),
    // One open lease per activation: a repeated acquire finds it, deactivation ends it.
    uniqueIndex("leases_open_by_activation")
      .on(t.activationId)
      .where(sql`${t.releasedAt} is null and not ${t.lapsed}`),
    // Concurrency analytics: spans by the time they started (rows arrive in that order, so BRIN is enough).
    index("leases_by_acquired").using("brin", t.acquiredAt),
    // Concurrency analytics: the spans still running at a day's start (today's, or the rollup's day), however
    // long ago they began: a span ends no later than its `expires_at`.
    index("leases_by_expires").on(t.expiresAt),
  ],
);
export type LeaseRow = typeof leases.$inferSelect;
