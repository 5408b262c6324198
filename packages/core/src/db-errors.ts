interface PgError {
  code?: string;
  constraint?: string;
  cause?: unknown;
}

/**
 * True when a query failed on a unique constraint (SQLSTATE 23505), optionally the named one. Drizzle wraps
 * driver errors, so the cause chain is searched; both node-postgres and PGlite report `code`.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e = error as PgError | undefined, depth = 0; e && depth < 5; e = e.cause as PgError, depth++) {
    if (e.code === "23505") {
      return !constraint || e.constraint === undefined || e.constraint === constraint;
    }
  }
  return false;
}
