import { and, eq, lt } from "drizzle-orm";
import { tables, type Tx } from "@licensing/db";
import type { Actor } from "../auth/actor.ts";
import { HOUR } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";

export const IDEMPOTENCY_WINDOW_MS = 24 * HOUR;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyRequest {
  /** The Idempotency-Key header; absent means the request is not idempotent. */
  key?: string | undefined;
  /** Names the operation, so one key sent to two endpoints counts as two different requests. */
  operation: string;
  body: unknown;
}

const t = tables.idempotencyKeys;

const principalOf = (actor: Actor) =>
  actor.kind === "token" ? `token:${actor.tokenId}` : `user:${actor.userId}`;

/**
 * Runs `work` in a transaction, once per (caller, Idempotency-Key) within 24 hours. The key row is
 * claimed at the start of the same transaction, so a concurrent repeat blocks on it until the first
 * commits and then replays its stored response; if the first fails, nothing is stored and a repeat runs
 * afresh. The same key with a different body is `idempotency.key_reused`.
 */
export async function runIdempotent<T>(
  deps: Deps,
  actor: Actor,
  request: IdempotencyRequest,
  status: number,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (request.key === undefined) return deps.db.transaction(work);
  if (!KEY_PATTERN.test(request.key)) {
    fail("idempotency.invalid_key", "Idempotency-Key must be 1 to 255 visible ASCII characters");
  }
  const principal = principalOf(actor);
  const key = request.key;
  const requestHash = sha256Hex(`${request.operation}\n${canonicalJson(request.body)}`);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const fresh = { requestHash, statusCode: 0, responseBody: "", createdAt: now };
    const claimed = await tx
      .insert(t)
      .values({ principal, key, ...fresh })
      .onConflictDoUpdate({
        target: [t.principal, t.key],
        set: fresh,
        // An entry older than the window is forgotten and the key reused as new.
        setWhere: lt(t.createdAt, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)),
      })
      .returning({ key: t.key });
    if (claimed.length === 0) {
      const [previous] = await tx
        .select()
        .from(t)
        .where(and(eq(t.principal, principal), eq(t.key, key)));
      if (!previous || previous.requestHash !== requestHash) {
        return fail(
          "idempotency.key_reused",
          "This Idempotency-Key was already used with a different request",
        );
      }
      return JSON.parse(previous.responseBody) as T;
    }
    const result = await work(tx);
    await tx
      .update(t)
      .set({ statusCode: status, responseBody: JSON.stringify(result) })
      .where(and(eq(t.principal, principal), eq(t.key, key)));
    return result;
  });
}

/** JSON with object keys sorted, so the same body in another key order counts as the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** Forgets entries past the window; a periodic job may call it, correctness does not depend on it. */
export async function purgeIdempotencyKeys(deps: Deps): Promise<number> {
  const purged = await deps.db
    .delete(t)
    .where(lt(t.createdAt, new Date(deps.clock.now().getTime() - IDEMPOTENCY_WINDOW_MS)))
    .returning({ key: t.key });
  return purged.length;
}
