import { getTableName } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { tables } from "@licensing/db";
import type { SealedAt } from "./secret-box.ts";

/** Every column that holds a value sealed under the master key: the one list the rotation, the upgrade and the check read. */
export const SEALED_COLUMNS = {
  signingKeys: {
    label: "signing keys",
    id: tables.signingKeys.id,
    sealed: tables.signingKeys.privateKeySealed,
  },
  totpSecrets: { label: "TOTP secrets", id: tables.users.id, sealed: tables.users.totpSecret },
  webhookSecrets: {
    label: "webhook secrets",
    id: tables.webhookEndpoints.id,
    sealed: tables.webhookEndpoints.secretSealed,
  },
} as const;
export type SealedColumn = (typeof SEALED_COLUMNS)[keyof typeof SEALED_COLUMNS];

/** Where a value sealed in `column` of row `rowId` is bound (its table and column by their SQL names). */
export const sealedAt = (column: PgColumn, rowId: string): SealedAt => ({
  table: getTableName(column.table),
  column: column.name,
  rowId,
});
