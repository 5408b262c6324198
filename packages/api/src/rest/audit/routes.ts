import { pipeline } from "node:stream/promises";
import { AuditExportQuery, AuditLogResponse, AuditQuery } from "@licensing/contracts";
import { audit } from "@licensing/core";
import { z } from "zod";
import { route } from "../route.ts";

const tags = ["Audit"];
const base = "/panel/audit";

export const auditRoutes = [
  route({
    method: "get",
    path: base,
    summary: "Audit log, newest first (Operator)",
    tags,
    auth: "authenticated",
    query: AuditQuery,
    response: z.array(AuditLogResponse),
    errors: ["auth.operator_required", "audit.invalid_range"],
    handler: ({ deps, actor, query }) => audit.listAudit(deps, actor, query),
  }),
  route({
    method: "get",
    path: `${base}/export`,
    summary: "Stream the matching audit log as a CSV or JSON attachment (Operator)",
    tags,
    auth: "authenticated",
    query: AuditExportQuery,
    response: z.string().meta({
      description:
        "CSV `timestamp,actor,action,entityType,entityId,meta` (RFC 4180), or with format=json a JSON array of AuditLogResponse",
    }),
    produces: "text/csv",
    errors: ["auth.operator_required", "audit.invalid_format", "audit.invalid_range"],
    async handler({ deps, actor, query, res }) {
      const file = await audit.exportAudit(deps, actor, query);
      res.status(200);
      res.setHeader("Content-Type", file.contentType);
      res.setHeader("Content-Disposition", `attachment; filename="${file.fileName}"`);
      res.setHeader("Cache-Control", "no-store");
      await pipeline(file.body, res).catch((error: NodeJS.ErrnoException) => {
        // The client went away mid-download: nothing to answer, nothing to log as a failure.
        if (error.code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
      });
      return "";
    },
  }),
];
