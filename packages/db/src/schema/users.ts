import { bigint, boolean, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";
import { id, timestamptz } from "./columns.ts";

export const userStatuses = ["pending", "active", "revoked"] as const;
export const companyRoles = ["owner", "admin", "viewer"] as const;

export const users = pgTable(
  "users",
  {
    id: id(),
    /** Stored lower-cased; login compares lower-cased input. */
    email: text("email").notNull(),
    displayName: text("display_name"),
    passwordHash: text("password_hash"),
    isOperator: boolean("is_operator").notNull().default(false),
    status: text("status", { enum: userStatuses }).notNull(),
    companyId: uuid("company_id").references(() => companies.id),
    role: text("role", { enum: companyRoles }),
    /** AES-256-GCM ciphertext of the base32 secret under the master key. */
    totpSecret: text("totp_secret"),
    totpEnabled: boolean("totp_enabled").notNull().default(false),
    /** Last accepted TOTP time step: a code from this step or earlier is refused. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    lastLoginAt: timestamptz("last_login_at"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email), index("users_by_company").on(t.companyId)],
);
export type UserRow = typeof users.$inferSelect;

export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [index("recovery_codes_by_user").on(t.userId)],
);
