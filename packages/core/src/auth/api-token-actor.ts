import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { MINUTE } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import type { TokenActor } from "./actor.ts";

export const API_TOKEN_PREFIX = "svc_pat_";
// `lastUsedAt` is written at most once a minute per token, so a busy integration costs no extra writes.
const TOUCH_EVERY_MS = MINUTE;

/** Resolves `Authorization: Bearer svc_pat_…`; a malformed, unknown, revoked or expired token is a 401. */
export async function resolveApiToken(deps: Deps, bearer: string, request: RequestInfo): Promise<TokenActor> {
  if (!bearer.startsWith(API_TOKEN_PREFIX) || bearer.length > 200) {
    fail("auth.invalid_token", "The bearer token is not a personal access token");
  }
  const [token] = await deps.db
    .select()
    .from(tables.apiTokens)
    .where(eq(tables.apiTokens.secretHash, sha256Hex(bearer)))
    .limit(1);
  const now = deps.clock.now();
  if (!token) return fail("auth.invalid_token", "The access token is unknown");
  if (token.revokedAt) fail("auth.invalid_token", "The access token has been revoked");
  if (token.expiresAt && token.expiresAt <= now) fail("auth.invalid_token", "The access token has expired");
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
    await deps.db.update(tables.apiTokens).set({ lastUsedAt: now }).where(eq(tables.apiTokens.id, token.id));
  }
  return {
    kind: "token",
    tokenId: token.id,
    tokenName: token.name,
    email: `token:${token.prefix}`,
    isOperator: false,
    companyId: token.companyId,
    role: "admin",
    request,
  };
}
