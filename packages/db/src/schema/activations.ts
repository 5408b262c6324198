import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";
import { licenses } from "./licenses.ts";

export const activationStatuses = ["active", "deactivated"] as const;

/** Machines a license is activated on (spec §3 Activation). */
export const activations = pgTable(
  "activations",
  {
    id: id(),
    licenseId: uuid("license_id")
      .notNull()
      .references(() => licenses.id),
    hwFingerprint: text("hw_fingerprint"),
    machineName: text("machine_name"),
    status: text("status", { enum: activationStatuses }).notNull(),
    activatedAt: timestamptz("activated_at").notNull(),
    lastHeartbeatAt: timestamptz("last_heartbeat_at"),
    deactivatedAt: timestamptz("deactivated_at"),
    clientIp: text("client_ip"),
    /** Set when license.heartbeat_missed fires; the next heartbeat clears it, so it fires once per silence. */
    silenceReportedAt: timestamptz("silence_reported_at"),
  },
  (t) => [
    index("activations_by_license_status").on(t.licenseId, t.status),
    // One live activation per machine and license, even if two first activations race.
    uniqueIndex("activations_active_machine_key")
      .on(t.licenseId, t.hwFingerprint)
      .where(sql`${t.status} = 'active'`),
    // The silence detector's scan: live activations not yet reported. Deliberately without the heartbeat
    // columns, so a heartbeat changes no indexed column and PostgreSQL updates the row in place (HOT).
    index("activations_unreported_live")
      .on(t.licenseId)
      .where(sql`${t.status} = 'active' and ${t.silenceReportedAt} is null`),
  ],
);

/**
 * One row per accepted heartbeat; the panel lists the latest per license. Append-only telemetry written
 * only by the heartbeat statement, which has just matched both rows, so it carries no foreign keys: their
 * checks (a lookup and a row lock on each parent) would be most of the cost of the hot path.
 */
export const heartbeatRecords = pgTable(
  "heartbeat_records",
  {
    id: id(),
    activationId: uuid("activation_id").notNull(),
    licenseId: uuid("license_id").notNull(),
    occurredAt: timestamptz("occurred_at").notNull(),
  },
  (t) => [index("heartbeat_records_by_license_time").on(t.licenseId, t.occurredAt.desc())],
);
