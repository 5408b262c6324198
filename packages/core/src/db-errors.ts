interface PgError {
  code?: string;
  constraint?: string;
  cause?: unknown;
}

/** The driver error in a (possibly wrapped) error: drizzle wraps them, so the cause chain is searched. */
function driverError(error: unknown): PgError | undefined {
  for (let e = error as PgError | undefined, depth = 0; e && depth < 5; e = e.cause as PgError, depth++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e;
  }
  return undefined;
}

/**
 * True when a query failed on a unique constraint (SQLSTATE 23505), optionally the named one; both
 * node-postgres and PGlite report `code`.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = driverError(error);
  if (e?.code !== "23505") return false;
  return !constraint || e.constraint === undefined || e.constraint === constraint;
}

/** True when PostgreSQL broke a deadlock by aborting this statement (SQLSTATE 40P01): running it again is safe. */
export const isDeadlock = (error: unknown): boolean => driverError(error)?.code === "40P01";
