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
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>).filter(
    ([key]) => key in (rows[0] as object),
  );
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = (row as Record<string, unknown>)[key];
      // json_populate_recordset takes a JSON value as it is for a json column, so it is not stringified.
      record[column.name] =
        value === null || value === undefined || is(column, PgJson) || is(column, PgJsonb)
          ? (value ?? null)
          : column.mapToDriverValue(value);
    }
    return record;
  });
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  await executor.execute(
    sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json)`,
  );
}
