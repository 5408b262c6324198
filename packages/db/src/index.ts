export {
  createDatabase,
  type Database,
  type DatabaseOptions,
  type PoolUse,
  type Db,
  type Executor,
  type Tx,
} from "./database.ts";
export * as tables from "./schema/index.ts";
export { insertRows } from "./insert-rows.ts";
export { encodeComponents } from "./schema/activations.ts";
export type {
  ActivationRow,
  ApiTokenRow,
  AuditLogRow,
  CompanyRow,
  LeaseRow,
  LicenseRow,
  OneTimeTokenRow,
  SigningKeyRow,
  TemplateRow,
  TemplateVersionRow,
  UsageDailyRow,
  UserRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from "./schema/index.ts";
export { isDeadlock, isUniqueViolation, runAgainOnDeadlock } from "./driver-errors.ts";
export { isDatabaseUnavailable } from "./unavailable.ts";
