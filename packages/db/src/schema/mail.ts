import { index, pgTable, text } from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";

/**
 * A record of every mail the service sends, kept 30 days (the mail-outbox-purge job): never the token a
 * mail carries. `text` is null once SMTP took the mail, and without its token otherwise (docs/security.md).
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text"),
    status: text("status", { enum: ["logged", "sent", "failed"] }).notNull(),
    error: text("error"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [index("mail_outbox_by_created_at").on(t.createdAt)],
);
