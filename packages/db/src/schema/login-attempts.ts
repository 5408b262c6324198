import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";

/**
 * Sign-in attempts per account and client (decision 0036): failed ones feed the throttle, and the latest
 * completed sign-in of a client marks it as known to the account. Keyed by a hash of the e-mail address,
 * not by user, so an address without an account is throttled exactly as one with.
 */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: id(),
    /** SHA-256 of the lower-cased e-mail address. */
    accountKey: text("account_key").notNull(),
    /** The client's address: IPv4, or the /56 of an IPv6 address. */
    clientKey: text("client_key").notNull(),
    /** False for a failed attempt (or one still being checked), true for a completed sign-in. */
    succeeded: boolean("succeeded").notNull(),
    occurredAt: timestamptz("occurred_at").notNull(),
  },
  (t) => [
    index("login_attempts_by_account_time").on(t.accountKey, t.occurredAt),
    index("login_attempts_by_time").on(t.occurredAt),
  ],
);
