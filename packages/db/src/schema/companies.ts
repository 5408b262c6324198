import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, unique, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";

export const companies = pgTable(
  "companies",
  {
    id: id(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    parentId: uuid("parent_id").references((): AnyPgColumn => companies.id),
    /** Ids from the root, `/rootId/childId/`; see docs/architecture.md. */
    path: text("path").notNull(),
    depth: integer("depth").notNull(),
    status: text("status", { enum: ["Active", "Archived"] })
      .notNull()
      .default("Active"),
    contactEmail: text("contact_email"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    unique("companies_sibling_slug_key").on(t.parentId, t.slug).nullsNotDistinct(),
    index("companies_subtree_by_path").using("btree", sql`${t.path} text_pattern_ops`),
    index("companies_children_by_parent").on(t.parentId),
  ],
);
export type CompanyRow = typeof companies.$inferSelect;
