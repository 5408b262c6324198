import { tables, type Db } from "@licensing/db";
import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { Clock } from "../clock.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /**
   * The live token the text carries (an invitation or reset link's), or null. It reaches the recipient
   * and, without SMTP_URL, the log; the `mail_outbox` table never stores it.
   */
  secret: string | null;
}

/** What the outbox keeps in place of the mail's secret. */
export const REMOVED_SECRET = "[removed]";

export interface Mailer {
  /** Queues the mail and returns at once, so a caller's response time does not depend on SMTP. */
  sendLater(mail: Mail): void;
  /** Resolves when every queued mail has been handed over (used at shutdown and in tests). */
  idle(): Promise<void>;
}

export interface MailerOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** smtp:// or smtps:// URL; without it mails go to the log only (the `mail_outbox` row keeps no token). */
  smtpUrl?: string | undefined;
  from: string;
}

export function createMailer({ db, clock, logger, smtpUrl, from }: MailerOptions): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  const pending = new Set<Promise<void>>();

  async function deliver({ secret, ...mail }: Mail) {
    let status: "logged" | "sent" | "failed" = "logged";
    let error: string | null = null;
    if (transport) {
      try {
        await transport.sendMail({ from, ...mail });
        status = "sent";
      } catch (cause) {
        status = "failed";
        error = cause instanceof Error ? cause.message : String(cause);
        logger.error({ err: cause, to: mail.to, subject: mail.subject }, "mail delivery failed");
      }
    } else {
      // The documented exception to "no secrets in the log" (docs/security.md): without SMTP the log is
      // the delivery, so the invitation or reset link is written here, marked and at warn.
      logger.warn(
        { mail, containsSecret: "mail link" },
        "mail not sent (no SMTP_URL): this line holds a live link, treat it as a secret",
      );
    }
    // A delivered mail leaves no body behind; an undelivered one keeps its text, without the token.
    const text = status === "sent" ? null : secret ? mail.text.replaceAll(secret, REMOVED_SECRET) : mail.text;
    await db.insert(tables.mailOutbox).values({ ...mail, text, status, error, createdAt: clock.now() });
  }

  return {
    sendLater(mail) {
      const job = deliver(mail)
        .catch((err: unknown) => logger.error({ err }, "mail outbox write failed"))
        .finally(() => pending.delete(job));
      pending.add(job);
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
