import { and, asc, count, ilike, isNull, or, sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { OperatorTenantPage, OperatorTenantQuery } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { assertOperator } from "../policy/index.ts";
import { rowsOf } from "../sql-rows.ts";

const c = tables.companies;
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
// A company's root is the first id of its path (`/rootId/…/`).
const rootOf = sql`split_part(path, '/', 2)`;

/**
 * GET /operator/tenants: root companies by name, `search` on part of the name or slug (any case), each
 * with the size of its subtree: `descendantCount` companies below it, `licenseCount` licenses of the
 * whole subtree.
 */
export async function listTenants(
  deps: Deps,
  actor: Actor,
  query: OperatorTenantQuery,
): Promise<OperatorTenantPage> {
  assertOperator(actor);
  const pattern = query.search ? `%${escapeLike(query.search)}%` : undefined;
  const where = and(
    isNull(c.parentId),
    pattern ? or(ilike(c.name, pattern), ilike(c.slug, pattern)) : undefined,
  );
  const [roots, [total]] = await Promise.all([
    deps.reads
      .select()
      .from(c)
      .where(where)
      .orderBy(asc(c.name), asc(c.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    deps.reads.select({ n: count() }).from(c).where(where),
  ]);
  const ids = roots.map((root) => root.id);
  const sizes = new Map<string, { descendants: number; licenses: number }>();
  if (ids.length) {
    const rows = rowsOf<{ root: string; descendants: number; licenses: number }>(
      await deps.reads.execute(sql`
        select s.root, s.companies - 1 as descendants, coalesce(sum(x.n), 0)::int as licenses
          from (select ${rootOf} as root, count(*)::int as companies, array_agg(id) as ids
                  from companies where ${rootOf} = any(${`{${ids.join(",")}}`}::text[]) group by 1) s
          left join lateral (select count(*)::int as n from licenses where company_id = any(s.ids)) x on true
         group by s.root, s.companies`),
    );
    for (const row of rows) sizes.set(row.root, row);
  }
  return {
    items: roots.map((root) => ({
      id: root.id,
      name: root.name,
      slug: root.slug,
      status: root.status,
      contactEmail: root.contactEmail,
      descendantCount: sizes.get(root.id)?.descendants ?? 0,
      licenseCount: sizes.get(root.id)?.licenses ?? 0,
      createdAt: root.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
