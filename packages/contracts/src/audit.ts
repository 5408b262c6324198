import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";
import { example } from "./examples.ts";

export const AuditLogResponse = z
  .object({
    id: Uuid,
    action: z.string().meta({ examples: ["license.revoked"] }),
    actorEmail: z
      .string()
      .nullable()
      .meta({ examples: [example.email] }),
    entityType: z.string().meta({ examples: ["license"] }),
    entityId: z
      .string()
      .nullable()
      .meta({ examples: ["3f1d2c4b-6a7e-4f80-9b1c-2d3e4f5a6b7c"] }),
    meta: z.string().meta({
      description: "JSON object as a string; never holds secrets",
      examples: [`{"licenseKey":"${example.licenseKey}","reason":"${example.reason}"}`],
    }),
    ipAddress: z
      .string()
      .nullable()
      .meta({ examples: ["203.0.113.7"] }),
    occurredAt: Timestamp,
  })
  .meta({ id: "AuditLogResponse" });
export type AuditLogResponse = z.infer<typeof AuditLogResponse>;

const Text = z.string().min(1).max(500);

export const AuditFilters = z.object({
  action: Text.optional(),
  actorEmail: Text.optional(),
  entityType: Text.optional(),
  entityId: Text.optional(),
  from: Timestamp.optional().meta({ description: "inclusive" }),
  until: Timestamp.optional().meta({ description: "inclusive" }),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

export const AuditQuery = AuditFilters.extend({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const auditExportFormats = ["csv", "json"] as const;
export type AuditExportFormat = (typeof auditExportFormats)[number];

export const AuditExportQuery = AuditFilters.extend({
  // Checked by core, so an unknown value answers audit.invalid_format.
  format: z.string().max(20).optional().meta({ description: "csv (default) or json" }),
});
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;

/** Columns of the CSV export, in order. */
export const AUDIT_CSV_HEADER = ["timestamp", "actor", "action", "entityType", "entityId", "meta"] as const;
