import { check, pgTable, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { timestamptz } from "./columns.ts";

/**
 * One row: a known value sealed under the master key by the first instance that started on this database
 * (decision 0053). An instance whose key does not open it refuses to start, so two instances with
 * different keys cannot both serve one database. The master key rotation re-seals it with the rest.
 */
export const masterKeyCheck = pgTable(
  "master_key_check",
  {
    /** Always `master`: the table holds one row. */
    id: text("id").primaryKey(),
    /** The check value, sealed (v2) for `master_key_check:check_value:master`. */
    checkValue: text("check_value").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [check("master_key_check_one_row", sql`${t.id} = 'master'`)],
);
