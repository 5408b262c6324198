import { and, eq, gt, isNull } from "drizzle-orm";
import { tables, type Executor, type OneTimeTokenRow } from "@licensing/db";
import type { Clock } from "../clock.ts";
import { randomSecret, sha256Hex } from "../crypto/hash.ts";

type Kind = OneTimeTokenRow["kind"];

/** Issues a single-use token; any earlier unused token of the same kind for the user stops working. */
export async function issueOneTimeToken(
  executor: Executor,
  clock: Clock,
  { kind, userId, ttlMs }: { kind: Kind; userId: string; ttlMs: number },
) {
  const token = randomSecret(32);
  const now = clock.now();
  await executor
    .delete(tables.oneTimeTokens)
    .where(and(eq(tables.oneTimeTokens.userId, userId), eq(tables.oneTimeTokens.kind, kind)));
  await executor.insert(tables.oneTimeTokens).values({
    tokenHash: sha256Hex(token),
    kind,
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return { token, expiresAt: new Date(now.getTime() + ttlMs) };
}

const usable = (kind: Kind, token: string, now: Date) =>
  and(
    eq(tables.oneTimeTokens.tokenHash, sha256Hex(token)),
    eq(tables.oneTimeTokens.kind, kind),
    isNull(tables.oneTimeTokens.usedAt),
    gt(tables.oneTimeTokens.expiresAt, now),
  );

export async function peekOneTimeToken(executor: Executor, clock: Clock, kind: Kind, token: string) {
  const [row] = await executor
    .select()
    .from(tables.oneTimeTokens)
    .where(usable(kind, token, clock.now()))
    .limit(1);
  return row;
}

/** Marks the token used and returns it; a second call (or a racing one) gets undefined. */
export async function consumeOneTimeToken(executor: Executor, clock: Clock, kind: Kind, token: string) {
  const now = clock.now();
  const [row] = await executor
    .update(tables.oneTimeTokens)
    .set({ usedAt: now })
    .where(usable(kind, token, now))
    .returning();
  return row;
}
