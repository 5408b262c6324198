// node-postgres and PGlite both answer `db.execute` with `{ rows }`.
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
