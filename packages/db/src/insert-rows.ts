import { getTableColumns, is, sql, type Column } from "drizzle-orm";
import { PgJson, PgJsonb, type PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "./database.ts";

/**
 * Inserts rows in one statement with a single parameter: the rows as one JSON array, spread into their
 * columns by `json_populate_recordset`. Drizzle's `insert().values(rows)` binds every column of every row
 * (defaults included) as a parameter of its own; for 200 rows of a wide table that took longer than
 * signing their tokens (decision 0059). The columns are those of the first row; a column no row gives takes
 * its database default (Drizzle's `$defaultFn`s are not applied: the tables written here have none).
 */
export async function insertRows<T extends PgTable>(
  executor: Executor,
  table: T,
  rows: readonly T["$inferInsert"][],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>)
    .filter(([key]) => (rows[0] as Record<string, unknown>)[key] !== undefined)
    .map(([key, column]) => ({
      key,
      column,
      // json_populate_recordset takes a JSON value as it is for a json column, so it is not stringified.
      isJson: is(column, PgJson) || is(column, PgJsonb),
    }));
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const { key, column, isJson } of columns) {
      const value = (row as Record<string, unknown>)[key];
      // Drizzle writes the default for undefined; json_populate_recordset would write null.
      if (value === undefined && column.hasDefault) {
        throw new Error(`insertRows: ${key} is undefined in one row and given in another`);
      }
      record[column.name] =
        value === null || value === undefined ? null : isJson ? value : column.mapToDriverValue(value);
    }
    return record;
  });
  const names = sql.join(
    columns.map(({ column }) => sql.identifier(column.name)),
    sql`, `,
  );
  await executor.execute(
    sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json)`,
  );
}
