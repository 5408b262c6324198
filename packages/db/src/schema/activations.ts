import { sql } from "drizzle-orm";
import { ACTIVATION_MODES, type FingerprintComponent } from "@licensing/contracts";
import {
  boolean,
  customType,
  index,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";
import { licenses } from "./licenses.ts";

export const activationStatuses = ["active", "deactivated"] as const;
/** How the machine activated: through the client API, or through the panel with a request it carried (0050). */
export const activationModes = ACTIVATION_MODES;

/**
 * Fingerprint components as the database keeps them: a `text[]` of `kind:hash` (the kind is `[a-z0-9-]`,
 * the hash hex, so neither the separator nor the array literal needs quoting). One array rather than
 * jsonb: it is cheaper to write on the activation path, and `&&` on it, by a GIN index, finds the
 * activations sharing a component with a request (decision 0046).
 */
export const encodeComponents = (components: readonly FingerprintComponent[]) =>
  `{${components.map((c) => `${c.kind}:${c.hash}`).join(",")}}`;

const decodeComponents = (value: string | string[]): FingerprintComponent[] =>
  (typeof value === "string"
    ? value
        .replace(/^\{|\}$/g, "")
        .split(",")
        .filter(Boolean)
    : value
  ).map((item) => {
    const at = item.indexOf(":");
    return { kind: item.slice(0, at), hash: item.slice(at + 1) };
  });

const fingerprintComponents = customType<{ data: FingerprintComponent[]; driverData: string | string[] }>({
  dataType: () => "text[]",
  toDriver: encodeComponents,
  fromDriver: decodeComponents,
});

/** Machines a license is activated on (spec §3 Activation). */
export const activations = pgTable(
  "activations",
  {
    id: id(),
    licenseId: uuid("license_id")
      .notNull()
      .references(() => licenses.id),
    hwFingerprint: text("hw_fingerprint"),
    /**
     * The fingerprint components the machine last sent, or null when it sent none (`encodeComponents`).
     * A heal, or the machine activating again, replaces them.
     */
    components: fingerprintComponents("components"),
    /** This activation brought a device new to the license: it counts against the device budget (0047). */
    newDevice: boolean("new_device").notNull().default(false),
    machineName: text("machine_name"),
    status: text("status", { enum: activationStatuses }).notNull(),
    activatedAt: timestamptz("activated_at").notNull(),
    lastHeartbeatAt: timestamptz("last_heartbeat_at"),
    deactivatedAt: timestamptz("deactivated_at"),
    clientIp: text("client_ip"),
    /**
     * The license's company and template when it was activated, copied so analytics count live activations
     * per company and template from this table alone (decision 0028). A template never changes and a
     * transfer deactivates every activation, so a live activation's copies are never stale. No foreign
     * keys, like heartbeat records: the license row the activation just claimed already holds valid ones.
     */
    companyId: uuid("company_id").notNull(),
    templateId: uuid("template_id").notNull(),
    /** Set when license.heartbeat_missed fires; the next heartbeat clears it, so it fires once per silence. */
    silenceReportedAt: timestamptz("silence_reported_at"),
    /** `offline`: the machine holds a certificate from the panel and never heartbeats (decision 0050). */
    mode: text("mode", { enum: activationModes }).notNull().default("online"),
    /** The nonce of the offline certificate the machine holds: only a receipt naming it frees the seat. */
    offlineNonce: text("offline_nonce"),
  },
  (t) => [
    // One live activation per machine and license, even if two first activations race. With its leading
    // license_id it is also the index of a license's live activations (a partial index holds every row
    // its predicate admits, null fingerprints too): no separate (license_id, status) index (migration 0021).
    uniqueIndex("activations_active_machine_key")
      .on(t.licenseId, t.hwFingerprint)
      .where(sql`${t.status} = 'active'`),
    // The silence detector's scan: live activations not yet reported. Deliberately without the heartbeat
    // columns, so a heartbeat changes no indexed column and PostgreSQL updates the row in place (HOT).
    // Offline activations never heartbeat, so their silence is no news and they stay out of the scan.
    index("activations_unreported_live")
      .on(t.licenseId)
      .where(sql`${t.status} = 'active' and ${t.silenceReportedAt} is null and ${t.mode} = 'online'`),
    // Analytics: live activations per company and template (distribution, overview).
    index("activations_live_by_company_template")
      .on(t.companyId, t.templateId)
      .where(sql`${t.status} = 'active'`),
    // A machine known to the license by its fingerprint, live or deactivated (decisions 0046, 0047), and
    // a license's activations of any status (its leading column).
    index("activations_by_license_fingerprint").on(t.licenseId, t.hwFingerprint),
    // The activations sharing a component with a request: the only ones it could match.
    // fastupdate off: every activation searches it, and a pending list would be scanned by each search.
    index("activations_by_component").using("gin", t.components).with({ fastupdate: false }),
    // The device budget: a license's new devices within its window (decision 0047).
    index("activations_new_devices_by_license")
      .on(t.licenseId, t.activatedAt)
      .where(sql`${t.newDevice}`),
    // Analytics: activations per day since the last rollup (usage).
    index("activations_by_activated").on(t.activatedAt),
  ],
);
export type ActivationRow = typeof activations.$inferSelect;

/**
 * Every offline activation request the panel answered, by its nonce (decision 0050): the same request
 * again returns the same activation, and a request used before whose activation has ended (or moved on
 * to a newer request) is refused, so an old request cannot take a seat back or change which receipt
 * frees one.
 */
export const offlineRequests = pgTable(
  "offline_requests",
  {
    licenseId: uuid("license_id")
      .notNull()
      .references(() => licenses.id),
    nonce: text("nonce").notNull(),
    activationId: uuid("activation_id")
      .notNull()
      .references(() => activations.id),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.licenseId, t.nonce] })],
);

/**
 * One row per accepted heartbeat; the panel lists the latest per license. Append-only telemetry written
 * only by the heartbeat statement, which has just matched both rows, so it carries no foreign keys: their
 * checks (a lookup and a row lock on each parent) would be most of the cost of the hot path.
 *
 * Range-partitioned by month on occurred_at (migration 0011, decision 0027): partitions
 * `heartbeat_records_pYYYYMM`, a default partition as a safety net, created ahead and dropped past
 * HEARTBEAT_RETENTION_DAYS by the partition job. drizzle-kit does not model partitioning, so the primary
 * key includes the partition key as PostgreSQL requires, and the SQL of 0011 is written by hand.
 */
export const heartbeatRecords = pgTable(
  "heartbeat_records",
  {
    id: uuid("id").notNull().defaultRandom(),
    activationId: uuid("activation_id").notNull(),
    licenseId: uuid("license_id").notNull(),
    occurredAt: timestamptz("occurred_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.occurredAt] }),
    index("heartbeat_records_by_license_time").on(t.licenseId, t.occurredAt.desc()),
    // Rows arrive in time order, so a BRIN index finds a day's rows for almost no cost on the hot path.
    index("heartbeat_records_by_time").using("brin", t.occurredAt),
  ],
);
