import { sql } from "drizzle-orm";
import { boolean, check, date, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";

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
