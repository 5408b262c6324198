import { AuditLogResponse, AuditQuery } from "@licensing/contracts";
import { audit } from "@licensing/core";
import { z } from "zod";
import { authedProcedure, router } from "../trpc.ts";

// The export is a file download: the admin app links to GET /api/v1/panel/audit/export (same cookie).
export const auditRouter = router({
  list: authedProcedure
    .input(AuditQuery)
    .output(z.array(AuditLogResponse))
    .query(({ ctx, input }) => audit.listAudit(ctx.deps, ctx.actor, input)),
});
