import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";

export const AuditLogResponse = z
  .object({
    id: Uuid,
    action: z.string().meta({ example: "company.created" }),
    actorEmail: z.string().nullable(),
    entityType: z.string(),
    entityId: z.string().nullable(),
    meta: z.string().meta({ description: "JSON object as a string; never holds secrets" }),
    ipAddress: z.string().nullable(),
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
