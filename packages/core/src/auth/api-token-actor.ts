import { eq, sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import { MINUTE } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { rowsOf } from "../sql-rows.ts";
import type { TokenActor } from "./actor.ts";

export const API_TOKEN_PREFIX = "svc_pat_";
// `lastUsedAt` is written at most once a minute per token, so a busy integration costs no extra writes.
const TOUCH_EVERY_MS = MINUTE;

interface ResolvedToken {
  id: string;
  name: string;
  prefix: string;
  company_id: string;
  expires_at: string | Date | null;
  revoked_at: string | Date | null;
  last_used_at: string | Date | null;
  /** The status of the chain's root user (null: no such user). */
  root_status: string | null;
  ancestor_revoked: boolean;
}

/**
 * The token by the hash of its secret, with what its chain says (decision 0037): its root user's status,
 * and whether any token above it (the one it was made with, and so on up) is revoked. One statement; a
 * token a user made has no ancestors, so the walk up ends at once. UNION (not ALL) ends even a cycle.
 */
const tokenWithChain = (secretHash: string) => sql`
  with recursive ancestors (id, parent_token_id, revoked_at) as (
    select p.id, p.parent_token_id, p.revoked_at
      from api_tokens t join api_tokens p on p.id = t.parent_token_id
     where t.secret_hash = ${secretHash}
    union
    select p.id, p.parent_token_id, p.revoked_at
      from ancestors a join api_tokens p on p.id = a.parent_token_id
  )
  select t.id, t.name, t.prefix, t.company_id, t.expires_at, t.revoked_at, t.last_used_at,
         u.status as root_status,
         exists (select 1 from ancestors where revoked_at is not null) as ancestor_revoked
    from api_tokens t left join users u on u.id = t.root_user_id
   where t.secret_hash = ${secretHash}`;

/**
 * Resolves `Authorization: Bearer svc_pat_…`; a malformed, unknown, revoked or expired token is a 401, and
 * so is one whose root user is no longer active or that was made with a token since revoked.
 */
export async function resolveApiToken(deps: Deps, bearer: string, request: RequestInfo): Promise<TokenActor> {
  if (!bearer.startsWith(API_TOKEN_PREFIX) || bearer.length > 200) {
    fail("auth.invalid_token", "The bearer token is not a personal access token");
  }
  const [token] = rowsOf<ResolvedToken>(await deps.db.execute(tokenWithChain(sha256Hex(bearer))));
  const now = deps.clock.now();
  if (!token) return fail("auth.invalid_token", "The access token is unknown");
  if (token.revoked_at) fail("auth.invalid_token", "The access token has been revoked");
  if (token.expires_at && new Date(token.expires_at) <= now)
    fail("auth.invalid_token", "The access token has expired");
  if (token.root_status !== "active")
    fail("auth.invalid_token", "The user the access token acts for is no longer active");
  if (token.ancestor_revoked)
    fail("auth.invalid_token", "The access token was made with a token that has since been revoked");
  const lastUsedAt = token.last_used_at === null ? null : new Date(token.last_used_at);
  if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
    await deps.db.update(tables.apiTokens).set({ lastUsedAt: now }).where(eq(tables.apiTokens.id, token.id));
  }
  return {
    kind: "token",
    tokenId: token.id,
    tokenName: token.name,
    email: `token:${token.prefix}`,
    isOperator: false,
    companyId: token.company_id,
    role: "admin",
    request,
  };
}
