import { and, eq, gt, ne } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import { DAY, MINUTE } from "../clock.ts";
import { randomSecret, sha256Hex } from "../crypto/hash.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import type { UserActor } from "./actor.ts";

/** Sliding: a session unused this long ends (spec §5); `SessionSettings.maxAgeDays` bounds it as a whole. */
export const SESSION_TTL_MS = 7 * DAY;
// Sliding expiry is written at most once a minute per session, not on every request.
const SLIDE_EVERY_MS = MINUTE;

const maxAgeMs = (deps: Pick<Deps, "config">) => deps.config.sessions.maxAgeDays * DAY;

/** Seven days from now, but never past the session's absolute end. */
const expiryAt = (deps: Pick<Deps, "config">, createdAt: Date, now: Date) =>
  new Date(Math.min(now.getTime() + SESSION_TTL_MS, createdAt.getTime() + maxAgeMs(deps)));

/** Opens a session and returns the raw id for the cookie; only its hash is stored. */
export async function openSession(
  executor: Executor,
  deps: Pick<Deps, "clock" | "config">,
  userId: string,
  request: RequestInfo,
) {
  const sessionId = randomSecret(32);
  const now = deps.clock.now();
  await executor.insert(tables.sessions).values({
    idHash: sha256Hex(sessionId),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: expiryAt(deps, now, now),
    ipAddress: request.ip,
    userAgent: request.userAgent?.slice(0, 500) ?? null,
  });
  return sessionId;
}

export interface ResolvedSession {
  actor: UserActor;
  /** True when the expiry moved forward and the cookie should be sent again. */
  slid: boolean;
}

export async function resolveSession(
  deps: Deps,
  sessionId: string,
  request: RequestInfo,
): Promise<ResolvedSession | null> {
  const idHash = sha256Hex(sessionId);
  const now = deps.clock.now();
  const [row] = await deps.db
    .select({ session: tables.sessions, user: tables.users })
    .from(tables.sessions)
    .innerJoin(tables.users, eq(tables.users.id, tables.sessions.userId))
    .where(
      and(
        eq(tables.sessions.idHash, idHash),
        gt(tables.sessions.expiresAt, now),
        // Also here, not only in expiresAt: a lowered SESSION_MAX_AGE_DAYS applies to open sessions at once.
        gt(tables.sessions.createdAt, new Date(now.getTime() - maxAgeMs(deps))),
      ),
    )
    .limit(1);
  if (!row || row.user.status !== "active") return null;

  const slid = now.getTime() - row.session.lastSeenAt.getTime() >= SLIDE_EVERY_MS;
  if (slid) {
    await deps.db
      .update(tables.sessions)
      .set({ lastSeenAt: now, expiresAt: expiryAt(deps, row.session.createdAt, now) })
      .where(eq(tables.sessions.idHash, idHash));
  }
  const { user } = row;
  return {
    slid,
    actor: {
      kind: "user",
      userId: user.id,
      email: user.email,
      displayName: user.displayName,
      isOperator: user.isOperator,
      totpEnabled: user.totpEnabled,
      companyId: user.companyId,
      role: user.role,
      sessionIdHash: idHash,
      request,
    },
  };
}

export async function closeSession(executor: Executor, sessionId: string) {
  await executor.delete(tables.sessions).where(eq(tables.sessions.idHash, sha256Hex(sessionId)));
}

/** Ends every session of a user, except the one whose hash is given. */
export async function closeUserSessions(executor: Executor, userId: string, exceptIdHash?: string) {
  await executor
    .delete(tables.sessions)
    .where(
      exceptIdHash
        ? and(eq(tables.sessions.userId, userId), ne(tables.sessions.idHash, exceptIdHash))
        : eq(tables.sessions.userId, userId),
    );
}
