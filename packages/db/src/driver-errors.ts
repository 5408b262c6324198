/**
 * What a failed query's error says about the database, for node-postgres and PGlite alike (both report
 * the SQLSTATE as `code`).
 */

/** `error` and the errors it wraps, outermost first: drizzle wraps the driver's error as `cause`. */
export function* causes(error: unknown): Generator<object> {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 5; depth++) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

interface PgError {
  code?: string;
  constraint?: string;
}

/** The driver error in a (possibly wrapped) error: the first one carrying a SQLSTATE. */
function driverError(error: unknown): PgError | undefined {
  for (const e of causes(error) as Iterable<PgError>) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e;
  }
  return undefined;
}

/** True when a query failed on a unique constraint (SQLSTATE 23505), optionally the named one. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = driverError(error);
  if (e?.code !== "23505") return false;
  return !constraint || e.constraint === undefined || e.constraint === constraint;
}

/** True when PostgreSQL broke a deadlock by aborting this statement (SQLSTATE 40P01): running it again is safe. */
export const isDeadlock = (error: unknown): boolean => driverError(error)?.code === "40P01";

/** Runs a statement, and again (up to `runs` times in all) when PostgreSQL aborts it to break a deadlock. */
export async function runAgainOnDeadlock<T>(statement: () => Promise<T>, runs = 3): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await statement();
    } catch (error) {
      if (!isDeadlock(error) || run >= runs) throw error;
    }
  }
}
