import { index, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
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
    /**
     * The user at the top of the chain: its creator, or for a token made with a token, the parent's root.
     * The token works only while this user is active (null: origin unknown, never authenticates).
     */
    rootUserId: uuid("root_user_id").references(() => users.id),
    /** The token this one was made with (null when a user made it); it works only while every ancestor does. */
    parentTokenId: uuid("parent_token_id").references((): AnyPgColumn => apiTokens.id),
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
    index("api_tokens_by_root_user").on(t.rootUserId),
    index("api_tokens_by_parent").on(t.parentTokenId),
  ],
);
export type ApiTokenRow = typeof apiTokens.$inferSelect;
