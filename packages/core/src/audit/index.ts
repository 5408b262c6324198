export { listAudit } from "./query.ts";
export { exportAudit, type AuditExport } from "./export.ts";
export { recordAudit, type AuditEntry } from "./record.ts";
