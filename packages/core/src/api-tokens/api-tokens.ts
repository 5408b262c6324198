import { desc, eq, sql } from "drizzle-orm";
import { tables, type ApiTokenRow, type Tx } from "@licensing/db";
import type { ApiTokenResponse, CreateApiTokenRequest, CreateApiTokenResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import { API_TOKEN_PREFIX } from "../auth/api-token-actor.ts";
import { DAY } from "../clock.ts";
import { randomSecret, sha256Hex } from "../crypto/hash.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import {
  assertCompanyFilterInScope,
  authorizeCompany,
  authorizeThroughCompany,
  companyScopeFilter,
  inSubtree,
  visibleCompanyScope,
} from "../policy/index.ts";
import { rowsOf } from "../sql-rows.ts";

const t = tables.apiTokens;
const MAX_EXPIRY_DAYS = 3650;
// Characters of the random part kept as the non-secret prefix: enough to tell tokens apart in a list.
const PREFIX_CHARS = 6;

export const toApiTokenResponse = (row: ApiTokenRow): ApiTokenResponse => ({
  id: row.id,
  name: row.name,
  companyId: row.companyId,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/** Tokens of the visible subtree (or of `companyId`'s subtree), newest first, never with secrets. */
export async function listApiTokens(
  deps: Deps,
  actor: Actor,
  query: { companyId?: string | undefined },
): Promise<ApiTokenResponse[]> {
  const condition = query.companyId
    ? inSubtree(
        tables.companies.path,
        (await assertCompanyFilterInScope(deps.db, actor, query.companyId)).path,
      )
    : companyScopeFilter(await visibleCompanyScope(deps.db, actor), tables.companies.path);
  const rows = await deps.db
    .select({ token: t })
    .from(t)
    .innerJoin(tables.companies, eq(tables.companies.id, t.companyId))
    .where(condition)
    .orderBy(desc(t.createdAt), desc(t.id));
  return rows.map((r) => toApiTokenResponse(r.token));
}

/**
 * Where a new token sits in its chain (decision 0037): made by a user, that user is its root; made with a
 * token, it hangs under that token (locked, so a revocation in flight either sees it or refuses it) and
 * shares its root, and it expires no later than its parent.
 */
async function chainOf(tx: Tx, actor: Actor) {
  if (actor.kind === "user") return { rootUserId: actor.userId, parentTokenId: null, parentExpiresAt: null };
  const [parent] = await tx.select().from(t).where(eq(t.id, actor.tokenId)).for("share");
  if (!parent || parent.revokedAt) return fail("auth.invalid_token", "The access token has been revoked");
  return { rootUserId: parent.rootUserId, parentTokenId: parent.id, parentExpiresAt: parent.expiresAt };
}

const earliest = (a: Date | null, b: Date | null) => (a && b ? (a < b ? a : b) : (a ?? b));

/**
 * Creates a token for a company the actor administers; the secret is in this answer only. A token made
 * with a token expires no later than the token it was made with.
 */
export async function createApiToken(
  deps: Deps,
  actor: Actor,
  input: CreateApiTokenRequest,
): Promise<CreateApiTokenResponse> {
  const name = input.name?.trim();
  if (!name) return fail("api_token.name_required", "name: a token needs a name");
  const days = input.expiresInDays;
  if (days != null && (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRY_DAYS)) {
    fail("api_token.invalid_expiry", `expiresInDays: a whole number from 1 to ${MAX_EXPIRY_DAYS}`);
  }
  const secret = `${API_TOKEN_PREFIX}${randomSecret(32)}`;
  const now = deps.clock.now();
  const requestedExpiry = days == null ? null : new Date(now.getTime() + days * DAY);
  const row = await deps.db.transaction(async (tx) => {
    await authorizeCompany(tx, actor, input.companyId, "admin");
    const { parentExpiresAt, ...links } = await chainOf(tx, actor);
    const [created] = await tx
      .insert(t)
      .values({
        name,
        companyId: input.companyId,
        createdByUserId: actor.kind === "user" ? actor.userId : null,
        ...links,
        prefix: secret.slice(0, API_TOKEN_PREFIX.length + PREFIX_CHARS),
        secretHash: sha256Hex(secret),
        createdAt: now,
        expiresAt: earliest(requestedExpiry, parentExpiresAt),
      })
      .returning();
    await recordAudit(tx, deps.clock, actor, {
      action: "api_token.created",
      entityType: "api_token",
      entityId: created!.id,
      meta: {
        name,
        companyId: input.companyId,
        prefix: created!.prefix,
        expiresInDays: days ?? null,
        ...(links.parentTokenId ? { parentTokenId: links.parentTokenId } : {}),
      },
    });
    return created!;
  });
  return { token: toApiTokenResponse(row), secret };
}

/**
 * Revokes a token (Admin on its company); idempotent. A token outside the visible subtree is reported as
 * unknown, like a missing one.
 */
export async function revokeApiToken(deps: Deps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ token: t, path: tables.companies.path })
      .from(t)
      .innerJoin(tables.companies, eq(tables.companies.id, t.companyId))
      .where(eq(t.id, id))
      .for("update", { of: t });
    authorizeThroughCompany(actor, found, "admin", {
      notFound: ["api_token.not_found", `No token with id ${id}`],
      forbidden: `Revoking a token needs the admin role on company ${found?.token.companyId}`,
    });
    if (found.token.revokedAt) return;
    const now = deps.clock.now();
    await tx.update(t).set({ revokedAt: now }).where(eq(t.id, id));
    const descendants = await revokeDescendants(tx, id, now);
    await recordAudit(tx, deps.clock, actor, {
      action: "api_token.revoked",
      entityType: "api_token",
      entityId: id,
      meta: {
        name: found.token.name,
        companyId: found.token.companyId,
        prefix: found.token.prefix,
        revokedDescendants: descendants,
      },
    });
  });
}

/**
 * Revokes every live token made (directly or down the line) with token `id`; returns how many. The
 * resolution refuses them anyway (their ancestor is revoked); this makes the list say so too.
 */
async function revokeDescendants(tx: Tx, id: string, now: Date): Promise<number> {
  const revoked = rowsOf<{ id: string }>(
    await tx.execute(sql`
      with recursive descendants (id) as (
        select id from api_tokens where parent_token_id = ${id}
        union
        select c.id from api_tokens c join descendants d on c.parent_token_id = d.id
      )
      update api_tokens set revoked_at = ${now.toISOString()}::timestamptz
       where id in (select id from descendants) and revoked_at is null
      returning id`),
  );
  return revoked.length;
}
