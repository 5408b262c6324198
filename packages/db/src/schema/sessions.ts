import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";
import { timestamptz } from "./columns.ts";

/** Server-side sessions; the cookie holds the id, the table only its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    lastSeenAt: timestamptz("last_seen_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_by_user").on(t.userId)],
);

export const oneTimeTokenKinds = ["invite", "password_reset", "login_ticket"] as const;

/** Invitations, password resets and 2FA login tickets: single-use, stored as SHA-256. */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: oneTimeTokenKinds }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [index("one_time_tokens_by_user_kind").on(t.userId, t.kind)],
);
export type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;
