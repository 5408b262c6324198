import { lt } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY } from "../clock.ts";
import type { Deps } from "../deps.ts";

/** How long a `mail_outbox` row (recipient, subject, status, body without its token) is kept. */
export const MAIL_OUTBOX_RETENTION_MS = 30 * DAY;

/** Deletes the outbox rows older than the retention; returns how many. */
export async function purgeMailOutbox(deps: Deps): Promise<number> {
  const t = tables.mailOutbox;
  const purged = await deps.db
    .delete(t)
    .where(lt(t.createdAt, new Date(deps.clock.now().getTime() - MAIL_OUTBOX_RETENTION_MS)))
    .returning({ id: t.id });
  return purged.length;
}
