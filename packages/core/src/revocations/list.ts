import { and, asc, eq, gte, sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { RevocationListResponse, RevocationsQuery } from "@licensing/contracts";
import { REVOCATION_LIST_PAGE_SIZE } from "@licensing/protocol";
import { unixSeconds } from "../crypto/license-token.ts";
import { signRevocationList } from "../crypto/signed-documents.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { documentSigner } from "../templates/key-chain.ts";
import { loadTemplate } from "../templates/load.ts";
import { activeSigningKey } from "../templates/signing-keys.ts";

// A page's last license: its revocation time in milliseconds and its id.
const CURSOR = /^(\d{1,15})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

const toCursor = (license: { id: string; revokedAt: Date | null }) =>
  `${license.revokedAt!.getTime()}_${license.id}`;

function fromCursor(cursor: string) {
  const match = CURSOR.exec(cursor);
  if (!match) return fail("request.invalid", "cursor: not a cursor this service wrote (a list's `next`)");
  return { revokedAt: new Date(Number(match[1])), id: match[2]! };
}

/**
 * GET /client/revocations (decision 0049): the template's licenses with `immediate` revocation revoked at
 * or after `since`, oldest first, at most 10,000 a page, as a list signed by the template's Active key
 * (its certificate in the header) that a program applies without the network. `next` is the cursor of the
 * following page. Licenses revoked gracefully are not listed: the spec's rule 5 governs them.
 */
export async function revocationList(deps: Deps, query: RevocationsQuery): Promise<RevocationListResponse> {
  const template = await loadTemplate(deps.db, query.templateId);
  const after = query.cursor === undefined ? null : fromCursor(query.cursor);
  const since = query.since === undefined ? null : new Date(query.since);
  const l = tables.licenses;
  const rows = await deps.db
    .select({ id: l.id, revokedAt: l.revokedAt })
    .from(l)
    .where(
      and(
        eq(l.templateId, template.id),
        eq(l.status, "Revoked"),
        eq(l.revocation, "immediate"),
        since ? gte(l.revokedAt, since) : undefined,
        after
          ? sql`(${l.revokedAt}, ${l.id}) > (${after.revokedAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(l.revokedAt), asc(l.id))
    .limit(REVOCATION_LIST_PAGE_SIZE + 1);
  const page = rows.slice(0, REVOCATION_LIST_PAGE_SIZE);
  const key = await activeSigningKey(deps.db, template.id);
  const list = signRevocationList(await documentSigner(deps, deps.db, key), {
    tid: template.id,
    tpl: template.productCode,
    since: since ? unixSeconds(since) : 0,
    iat: unixSeconds(deps.clock.now()),
    revoked: page.map((r) => ({ lid: r.id, revokedAt: unixSeconds(r.revokedAt!) })),
    next: rows.length > page.length ? toCursor(page.at(-1)!) : null,
  });
  return { list };
}
