import { pgTable, text } from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";

/** Every mail the service sends; without SMTP_URL this table is the only delivery. */
export const mailOutbox = pgTable("mail_outbox", {
  id: id(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  status: text("status", { enum: ["logged", "sent", "failed"] }).notNull(),
  error: text("error"),
  createdAt: timestamptz("created_at").notNull(),
});
