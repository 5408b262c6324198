import { desc, eq } from "drizzle-orm";
import { tables, type ApiTokenRow } from "@licensing/db";
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

/** Creates a token for a company the actor administers; the secret is in this answer only. */
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
  const row = await deps.db.transaction(async (tx) => {
    await authorizeCompany(tx, actor, input.companyId, "admin");
    const [created] = await tx
      .insert(t)
      .values({
        name,
        companyId: input.companyId,
        createdByUserId: actor.kind === "user" ? actor.userId : null,
        prefix: secret.slice(0, API_TOKEN_PREFIX.length + PREFIX_CHARS),
        secretHash: sha256Hex(secret),
        createdAt: now,
        expiresAt: days == null ? null : new Date(now.getTime() + days * DAY),
      })
      .returning();
    await recordAudit(tx, deps.clock, actor, {
      action: "api_token.created",
      entityType: "api_token",
      entityId: created!.id,
      meta: { name, companyId: input.companyId, prefix: created!.prefix, expiresInDays: days ?? null },
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
    await tx.update(t).set({ revokedAt: deps.clock.now() }).where(eq(t.id, id));
    await recordAudit(tx, deps.clock, actor, {
      action: "api_token.revoked",
      entityType: "api_token",
      entityId: id,
      meta: { name: found.token.name, companyId: found.token.companyId, prefix: found.token.prefix },
    });
  });
}
