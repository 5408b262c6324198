import { isDatabaseUnavailable, type Db } from "@licensing/db";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Clock } from "./clock.ts";

/**
 * A streaming read replica (DATABASE_READ_URL, docs/decisions/0056): which operations may read from it is
 * declared on the operations (`reads: "replica"`), and the API layer asks `usable()` before each such
 * call. This object keeps the replica's health: a replica that cannot be reached, or lags more than the
 * allowed seconds, is left alone for `RETRY_AFTER_MS` and its readers go to the primary, with one warning
 * a minute.
 */
export interface ReadReplica {
  db: Db;
  /** DATABASE_READ_MAX_LAG_SECONDS: beyond it the replica is not read; also the read-your-writes window. */
  maxLagMs: number;
  /** True when a read may go to the replica now (checks its lag at most every `LAG_CHECK_INTERVAL_MS`). */
  usable(): Promise<boolean>;
  /** A read on the replica failed with `error`: true when that means the replica is down (now marked). */
  failed(error: unknown): boolean;
  /** The caller `principal` (a session or a token) may have written: its reads stay on the primary a while. */
  noteWrite(principal: string): Promise<void>;
  /** True while `principal`'s reads must go to the primary (it wrote within the last `maxLagMs`). */
  wroteRecently(principal: string): Promise<boolean>;
}

/**
 * Who wrote lately, for read-your-writes. In memory it serves one instance; several instances share a
 * Redis-backed one (the server's, with REDIS_URL), so a read that lands on another instance knows too.
 */
export interface RecentWrites {
  note(principal: string, windowMs: number): Promise<void>;
  has(principal: string): Promise<boolean>;
}

/** Recent writers in this process, on the injected clock. */
export function memoryRecentWrites(clock: Clock): RecentWrites {
  const until = new Map<string, number>();
  return {
    async note(principal, windowMs) {
      const now = clock.now().getTime();
      if (until.size >= 10_000) for (const [key, at] of until) if (at <= now) until.delete(key);
      until.set(principal, now + windowMs);
    },
    async has(principal) {
      const at = until.get(principal);
      if (at === undefined) return false;
      if (at > clock.now().getTime()) return true;
      until.delete(principal);
      return false;
    },
  };
}

export interface ReadReplicaOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  maxLagSeconds: number;
  /** Defaults to one in memory. */
  recentWrites?: RecentWrites | undefined;
}

/** How long a replica found down or lagging is left alone before it is tried again. */
export const REPLICA_RETRY_AFTER_MS = 30_000;
/** How often the replica's lag is measured (one tiny query, shared by concurrent requests). */
export const LAG_CHECK_INTERVAL_MS = 1_000;
/** At most one "replica unavailable" warning per this interval. */
export const REPLICA_WARNING_INTERVAL_MS = 60_000;

// Zero when everything received is replayed (an idle primary sends nothing, so the last replayed commit
// may be old without any lag); otherwise the age of the last replayed commit. Not on a standby: zero.
const lagQuery = sql`select coalesce(case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
  else extract(epoch from now() - pg_last_xact_replay_timestamp()) end, 0)::float8 as lag`;

export function createReadReplica(options: ReadReplicaOptions): ReadReplica {
  const { db, clock, logger } = options;
  const maxLagMs = options.maxLagSeconds * 1000;
  const recentWrites = options.recentWrites ?? memoryRecentWrites(clock);
  let downUntil = -Infinity;
  let checkedAt = -Infinity;
  let checking: Promise<boolean> | undefined;
  let lastWarningAt = -Infinity;
  let suppressed = 0;

  const warn = (reason: string, detail: Record<string, unknown>) => {
    const now = clock.now().getTime();
    if (now - lastWarningAt < REPLICA_WARNING_INTERVAL_MS) {
      suppressed++;
      return;
    }
    lastWarningAt = now;
    logger.warn(
      { ...detail, suppressedSinceLastWarning: suppressed },
      `read replica ${reason}: its reads go to the primary (retried every ${REPLICA_RETRY_AFTER_MS / 1000} s)`,
    );
    suppressed = 0;
  };
  const leaveAlone = () => {
    downUntil = clock.now().getTime() + REPLICA_RETRY_AFTER_MS;
    checkedAt = -Infinity;
  };

  const measure = async (): Promise<boolean> => {
    try {
      const result = (await db.execute(lagQuery)) as unknown as { rows?: { lag: number }[] };
      const rows = result.rows ?? (result as unknown as { lag: number }[]);
      const lagMs = Number(rows[0]?.lag ?? 0) * 1000;
      checkedAt = clock.now().getTime();
      if (lagMs > maxLagMs) {
        warn("lags behind", { lagSeconds: lagMs / 1000, maxLagSeconds: options.maxLagSeconds });
        leaveAlone();
        return false;
      }
      return true;
    } catch (error) {
      warn("is unavailable", { err: error });
      leaveAlone();
      return false;
    }
  };

  return {
    db,
    maxLagMs,
    async usable() {
      const now = clock.now().getTime();
      if (now < downUntil) return false;
      if (now - checkedAt < LAG_CHECK_INTERVAL_MS) return true;
      checking ??= measure().finally(() => (checking = undefined));
      return checking;
    },
    failed(error) {
      if (!isDatabaseUnavailable(error)) return false;
      warn("is unavailable", { err: error });
      leaveAlone();
      return true;
    },
    // The window is the lag the replica is allowed: once it has passed, the write is on a replica that is
    // read at all. A store that cannot answer keeps the caller on the primary.
    noteWrite: (principal) => recentWrites.note(principal, maxLagMs + LAG_CHECK_INTERVAL_MS).catch(() => {}),
    wroteRecently: (principal) => recentWrites.has(principal).catch(() => true),
  };
}
