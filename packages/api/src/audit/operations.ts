import { AuditExportQuery, AuditLogResponse, AuditQuery } from "@licensing/contracts";
import { audit } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Audit"];
const base = "/panel/audit";

export const auditOperations = {
  list: operation({
    method: "get",
    path: base,
    summary: "Audit log, newest first",
    description:
      "The audit log, newest first, filtered by action, actor, entity and time, paged with `limit` and `offset`. Operators only; it changes nothing.",
    tags,
    auth: "authenticated",
    query: AuditQuery,
    response: z.array(AuditLogResponse),
    errors: ["auth.operator_required", "audit.invalid_range"],
    handler: ({ deps, actor, input }) => audit.listAudit(deps, actor, input),
  }),
  export: operation({
    method: "get",
    reads: "replica",
    path: `${base}/export`,
    summary: "Export the audit log as CSV or JSON",
    description:
      "Streams every matching audit entry as a CSV attachment (RFC 4180) or, with `format=json`, a JSON array, however many there are. Operators only; the export itself is recorded in the audit log (`audit.exported`) before the first byte.",
    tags,
    auth: "authenticated",
    query: AuditExportQuery,
    response: z.string().meta({
      description:
        "CSV `timestamp,actor,action,entityType,entityId,meta` (RFC 4180), or with format=json a JSON array of AuditLogResponse",
    }),
    stream: true,
    produces: "text/csv",
    restOnly: "a streamed CSV or JSON file: the admin app links to it with its cookie",
    errors: ["auth.operator_required", "audit.invalid_format", "audit.invalid_range"],
    handler: ({ deps, actor, input }) => audit.exportAudit(deps, actor, input),
  }),
};
