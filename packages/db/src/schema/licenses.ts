import { LICENSE_STATUSES } from "@licensing/contracts";
import {
  FINGERPRINT_MATCH_MODES,
  HW_BINDING_MODES,
  REVOCATION_MODES,
  SEAT_MODELS,
} from "@licensing/protocol";
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type ExtraConfigColumn,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";
import { id, timestamptz } from "./columns.ts";
import { signingKeys, templates, templateVersions } from "./templates.ts";

/**
 * A positive integer at `limits.<name>` of the config, else null (spec §2: zero, a string, a fraction or a
 * missing field mean no limit); beyond PostgreSQL's integer range, the largest integer.
 */
const positiveLimit = (name: string) =>
  sql.raw(`case when jsonb_typeof((config::jsonb) #> '{limits,${name}}') = 'number'
        then case when ((config::jsonb) #>> '{limits,${name}}')::numeric > 0
                   and ((config::jsonb) #>> '{limits,${name}}')::numeric % 1 = 0
             then least(((config::jsonb) #>> '{limits,${name}}')::numeric, 2147483647)::integer end end`);

const newestFirst = (t: { issuedAt: ExtraConfigColumn; id: ExtraConfigColumn }) =>
  [t.issuedAt.desc().nullsFirst(), t.id.desc().nullsFirst()] as const;

export const licenses = pgTable(
  "licenses",
  {
    id: id(),
    licenseKey: text("license_key").notNull(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id),
    /** The template version current at issue; null when the template had none. */
    templateVersionId: uuid("template_version_id").references(() => templateVersions.id),
    /** The key that signed `token`; its public half is the license's public key. */
    signingKeyId: uuid("signing_key_id")
      .notNull()
      .references(() => signingKeys.id),
    status: text("status", { enum: LICENSE_STATUSES }).notNull(),
    /** The config as embedded in the token (`cfg`), as a JSON string. */
    config: text("config").notNull(),
    offlineDays: integer("offline_days").notNull(),
    currentVersion: integer("current_version").notNull().default(1),
    /** The current signed token (JWS compact); replaced when the license is re-signed. */
    token: text("token").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    issuedAt: timestamptz("issued_at").notNull(),
    activatedAt: timestamptz("activated_at"),
    lastHeartbeatAt: timestamptz("last_heartbeat_at"),
    revokedAt: timestamptz("revoked_at"),
    revocationReason: text("revocation_reason"),
    isTrial: boolean("is_trial").notNull(),
    hwBinding: text("hw_binding", { enum: HW_BINDING_MODES }).notNull(),
    hwFingerprint: text("hw_fingerprint"),
    /** The device terms, resolved from the template (or the issue request) at issue (decisions 0046, 0047). */
    fingerprintMatch: text("fingerprint_match", { enum: FINGERPRINT_MATCH_MODES }).notNull().default("fuzzy"),
    /** null: no limit. */
    maxNewDevicesPerWindow: integer("max_new_devices_per_window"),
    newDeviceWindowDays: integer("new_device_window_days").notNull().default(30),
    /** The last panel reset of the device budget: new devices activated before it no longer count. */
    deviceBudgetResetAt: timestamptz("device_budget_reset_at"),
    /**
     * The retryAt of the last `license.device_budget_exhausted`: while it lies ahead, further refusals
     * publish nothing, so the event fires once per exhausted window.
     */
    deviceBudgetRefusedUntil: timestamptz("device_budget_refused_until"),
    /** The seat terms, resolved from the template (or the issue request) at issue (decision 0048). */
    seatModel: text("seat_model", { enum: SEAT_MODELS }).notNull().default("nodeLocked"),
    leaseSeconds: integer("lease_seconds").notNull().default(900),
    maxBorrowDays: integer("max_borrow_days").notNull().default(0),
    /**
     * When `license.seats_exhausted` was last published: a refusal within the hour after it publishes
     * nothing, so the event fires at most once an hour per license.
     */
    seatsExhaustedPublishedAt: timestamptz("seats_exhausted_published_at"),
    /** How a revocation reaches the machines, resolved from the template at issue (decision 0049). */
    revocation: text("revocation", { enum: REVOCATION_MODES }).notNull().default("graceful"),
    updatedAt: timestamptz("updated_at").notNull(),
    /**
     * The seat limit (spec §2): a positive integer `limits.maxSeats` in the config, else null for no
     * limit. Derived by the database, so no writer of `config` can leave it stale.
     */
    maxSeats: integer("max_seats").generatedAlwaysAs(positiveLimit("maxSeats")),
    /**
     * How many machines may hold active activations at once: the seat limit of a node-locked license, the
     * optional `limits.maxMachines` of a floating one (whose `maxSeats` caps leases instead). null: no limit.
     */
    machineLimit: integer("machine_limit").generatedAlwaysAs(
      sql`case when seat_model = 'floating' then ${positiveLimit("maxMachines")} else ${positiveLimit("maxSeats")} end`,
    ),
    /**
     * Active activations (the machines registered), kept by the writes that activate and deactivate (always under this row's lock),
     * so activation checks the seats in the same statement that takes one (decision 0007).
     */
    liveSeats: integer("live_seats").notNull().default(0),
  },
  (t) => [
    uniqueIndex("licenses_license_key_key").on(t.licenseKey),
    // Search by key prefix (LIKE 'SVC-AB%') needs pattern ops whatever the database collation. The company
    // and the order follow, so an Admin's prefix search (company_id = ANY(subtree)) is filtered, counted and
    // ordered from the index alone, without reading the prefix's matches elsewhere in the tree (issue 25 §6).
    index("licenses_by_key_prefix_company").using(
      "btree",
      sql`${t.licenseKey} text_pattern_ops`,
      t.companyId,
      t.issuedAt,
      t.id,
    ),
    // Concurrency analytics: the seats of the floating licenses in scope, without reading the others.
    index("licenses_floating_seats")
      .on(t.companyId, t.templateId, t.maxSeats)
      .where(sql`${t.seatModel} = 'floating' and ${t.status} = 'Active'`),
    // Search lists newest first (ORDER BY issued_at DESC, id DESC); each filter has an index that yields
    // rows already in that order. NULLS FIRST is spelled out: it is what DESC means in ORDER BY, and drizzle
    // otherwise writes DESC NULLS LAST, which PostgreSQL cannot use for that ORDER BY (NOT NULL or not).
    // Each also carries the other filter columns after (issued_at, id), which is unique, so the order is
    // unchanged: any combination of filters is then answered, and counted, by an index-only scan.
    index("licenses_by_issued").on(...newestFirst(t), t.companyId, t.templateId, t.status, t.expiresAt),
    index("licenses_by_company_issued").on(
      t.companyId,
      ...newestFirst(t),
      t.templateId,
      t.status,
      t.expiresAt,
    ),
    index("licenses_by_template_issued").on(
      t.templateId,
      ...newestFirst(t),
      t.companyId,
      t.status,
      t.expiresAt,
    ),
    index("licenses_by_status_issued").on(
      t.status,
      ...newestFirst(t),
      t.companyId,
      t.templateId,
      t.expiresAt,
    ),
    index("licenses_by_expiry").on(t.expiresAt),
    // The revocation list of a template (GET /client/revocations): its immediate licenses revoked since.
    index("licenses_revoked_by_template")
      .on(t.templateId, t.revokedAt, t.id)
      .where(sql`${t.status} = 'Revoked' and ${t.revocation} = 'immediate'`),
  ],
);
export type LicenseRow = typeof licenses.$inferSelect;
