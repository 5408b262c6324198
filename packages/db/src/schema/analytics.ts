import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";

/**
 * Usage per UTC day and company, for days that are over (decision 0028): written by the rollup job, never
 * by a request. Company at the time of the event (a transferred license's past stays with its old company).
 */
export const usageDaily = pgTable(
  "usage_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    companyId: uuid("company_id").notNull(),
    activations: integer("activations").notNull(),
    heartbeats: integer("heartbeats").notNull(),
    licensesIssued: integer("licenses_issued").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.companyId] })],
);
export type UsageDailyRow = typeof usageDaily.$inferSelect;

/** One row: the last day the rollup job has written; usage reads raw rows after it. */
export const usageRollupState = pgTable(
  "usage_rollup_state",
  {
    singleton: boolean("singleton").primaryKey().default(true),
    rolledThrough: date("rolled_through", { mode: "string" }),
  },
  (t) => [check("usage_rollup_state_single_row", sql`${t.singleton}`)],
);

/**
 * Floating seats per UTC day, company and template, for days that are over (decision 0048, amendment):
 * written by the lease rollup job from the leases' own spans, never by a request. Each license's peak and
 * full seconds are computed first, then summed: the figures are sums over licenses, so this grain answers
 * every scope (a subtree, a template, both). A day's spans no longer change once it is over, so a row is
 * final; `fullSeconds` counts against each license's `maxSeats` when rolled up.
 */
export const leaseConcurrencyDaily = pgTable(
  "lease_concurrency_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    companyId: uuid("company_id").notNull(),
    templateId: uuid("template_id").notNull(),
    /** The sum of each license's most leases live at once that day. */
    peakLeases: integer("peak_leases").notNull(),
    /** The sum of the seconds that day each license's live leases were at least its `maxSeats`. */
    fullSeconds: integer("full_seconds").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.companyId, t.templateId] }),
    index("lease_concurrency_daily_by_company").on(t.companyId, t.day),
  ],
);
export type LeaseConcurrencyDailyRow = typeof leaseConcurrencyDaily.$inferSelect;

/** One row: the last day the lease rollup job has written; concurrency reads the leases after it. */
export const leaseRollupState = pgTable(
  "lease_rollup_state",
  {
    singleton: boolean("singleton").primaryKey().default(true),
    rolledThrough: date("rolled_through", { mode: "string" }),
  },
  (t) => [check("lease_rollup_state_single_row", sql`${t.singleton}`)],
);
