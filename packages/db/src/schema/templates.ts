import { FINGERPRINT_MATCH_MODES, REVOCATION_MODES, SEAT_MODELS } from "@licensing/protocol";
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { id, timestamptz } from "./columns.ts";

export const templateStatuses = ["Active", "Archived"] as const;
/** docs/behaviour.md: Active signs (one per template), Inactive still verifies, Retired is withdrawn. */
export const signingKeyStatuses = ["Active", "Inactive", "Retired"] as const;

export const templates = pgTable(
  "templates",
  {
    id: id(),
    name: text("name").notNull(),
    productCode: text("product_code").notNull(),
    description: text("description"),
    defaultOfflineDays: integer("default_offline_days").notNull(),
    defaultValidityDays: integer("default_validity_days").notNull(),
    /** Copied to each license at issue unless the issue request overrides it (decisions 0046, 0047). */
    fingerprintMatch: text("fingerprint_match", { enum: FINGERPRINT_MATCH_MODES }).notNull().default("fuzzy"),
    maxNewDevicesPerWindow: integer("max_new_devices_per_window"),
    newDeviceWindowDays: integer("new_device_window_days").notNull().default(30),
    /** Copied to each license at issue unless the issue request overrides them (decision 0048). */
    seatModel: text("seat_model", { enum: SEAT_MODELS }).notNull().default("nodeLocked"),
    leaseSeconds: integer("lease_seconds").notNull().default(900),
    maxBorrowDays: integer("max_borrow_days").notNull().default(0),
    /** Copied to each license at issue unless the issue request overrides it (decision 0049). */
    revocation: text("revocation", { enum: REVOCATION_MODES }).notNull().default("graceful"),
    status: text("status", { enum: templateStatuses }).notNull().default("Active"),
    /** The version new licenses follow; null until the first version is created. */
    currentVersionId: uuid("current_version_id").references((): AnyPgColumn => templateVersions.id),
    createdAt: timestamptz("created_at").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [
    // Product codes are unique regardless of case: `PRO` and `pro` would confuse every report.
    uniqueIndex("templates_product_code_key").on(sql`lower(${t.productCode})`),
    index("templates_by_created").on(t.createdAt, t.id),
  ],
);
export type TemplateRow = typeof templates.$inferSelect;

export const signingKeys = pgTable(
  "signing_keys",
  {
    id: id(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id),
    status: text("status", { enum: signingKeyStatuses }).notNull(),
    /** Hex of the raw 32-byte Ed25519 public key. */
    publicKeyHex: text("public_key_hex").notNull(),
    /** PKCS#8 DER of the private key, sealed with AES-256-GCM under the master key (D9). */
    privateKeySealed: text("private_key_sealed").notNull(),
    /** From when the key signs. */
    notBefore: timestamptz("not_before").notNull(),
    /** When the key stopped signing (rotated out); null while it is the Active key. */
    notAfter: timestamptz("not_after"),
    retiredAt: timestamptz("retired_at"),
    createdAt: timestamptz("created_at").notNull(),
    /**
     * The template's root (its first key, the one programs are built with): it certifies the others
     * (decision 0049).
     */
    isRoot: boolean("is_root").notNull().default(false),
    /**
     * The root's certificate of this key (JWS), reissued with an end when the key is retired; null for the
     * root, and for a key rotated in before certificates existed until it is first needed.
     */
    certificate: text("certificate"),
  },
  (t) => [
    index("signing_keys_by_template").on(t.templateId, t.createdAt),
    uniqueIndex("signing_keys_one_active_per_template")
      .on(t.templateId)
      .where(sql`${t.status} = 'Active'`),
    uniqueIndex("signing_keys_one_root_per_template")
      .on(t.templateId)
      .where(sql`${t.isRoot}`),
  ],
);
export type SigningKeyRow = typeof signingKeys.$inferSelect;

export const templateVersions = pgTable(
  "template_versions",
  {
    id: id(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id),
    version: integer("version").notNull(),
    /** Kept as the caller sent it, so the JSON string read back is the one written. */
    configSchema: text("config_schema").notNull(),
    defaults: text("defaults").notNull(),
    /** The template's Active key when the version was created. */
    signingKeyId: uuid("signing_key_id")
      .notNull()
      .references(() => signingKeys.id),
    changelog: text("changelog"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [unique("template_versions_template_version_key").on(t.templateId, t.version)],
);
export type TemplateVersionRow = typeof templateVersions.$inferSelect;
