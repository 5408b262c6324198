import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns.ts";

/**
 * First responses to requests sent with an `Idempotency-Key` header, per caller, kept 24 hours. The row
 * is inserted in the transaction of the work itself, so a concurrent repeat waits for it.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** `user:<id>` or `token:<id>`: keys of different callers never meet. */
    principal: text("principal").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the operation and its canonical request body. */
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code").notNull(),
    /** The response body exactly as first sent. */
    responseBody: text("response_body").notNull(),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [primaryKey({ name: "idempotency_keys_pkey", columns: [t.principal, t.key] })],
);
