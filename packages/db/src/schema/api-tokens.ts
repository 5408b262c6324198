import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";
import { users } from "./users.ts";
import { id, timestamptz } from "./columns.ts";

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    name: text("name").notNull(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id),
    createdByUserId: uuid("created_by_user_id").references(() => users.id),
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    lastUsedAt: timestamptz("last_used_at"),
    expiresAt: timestamptz("expires_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_tokens_secret_hash_key").on(t.secretHash),
    index("api_tokens_by_company").on(t.companyId),
  ],
);
export type ApiTokenRow = typeof apiTokens.$inferSelect;
