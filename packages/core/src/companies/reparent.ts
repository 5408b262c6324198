import { eq, sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { CompanyResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { assertOperator, findCompany, inSubtree } from "../policy/index.ts";
import { toCompanyResponse } from "./company-response.ts";
import { assertSlugFree, lockCompany, withSlugConflict } from "./mutations.ts";

const c = tables.companies;
// Any constant shared by every instance works as the key; it only has to differ from other advisory locks.
const REPARENT_LOCK_KEY = 4_210_771_002;

/**
 * Moves a company (and its subtree) under another parent, or to the root with `newParentId` null.
 * Operators only. path and depth of the node and every descendant are rewritten in one transaction.
 */
export async function reparentCompany(
  deps: Deps,
  actor: Actor,
  id: string,
  newParentId: string | null,
): Promise<CompanyResponse> {
  assertOperator(actor);
  const moved = await withSlugConflict(undefined, () =>
    deps.db.transaction(async (tx) => {
      // Reparents run one at a time: two moves that are each valid alone (A under B, B under A) would
      // otherwise both pass the cycle check on stale paths and make a cycle.
      await tx.execute(sql`select pg_advisory_xact_lock(${REPARENT_LOCK_KEY})`);
      const node = (await findCompany(tx, id)) ?? fail("company.not_found", `No company with id ${id}`);
      // Lock every row we rewrite. A child being created under one of them holds a share lock on its parent,
      // so this waits for it to commit; the UPDATE below then sees it (fresh snapshot per statement).
      const subtree = await tx.select({ id: c.id }).from(c).where(inSubtree(c.path, node.path)).for("update");

      let parentPath = "/";
      let depth = 0;
      if (newParentId) {
        const parent =
          (await lockCompany(tx, newParentId, "share")) ??
          fail("company.not_found", `newParentId: no company with id ${newParentId}`);
        if (parent.path.startsWith(node.path)) {
          fail("company.invalid_parent", "newParentId: a company cannot move under itself or its descendant");
        }
        if (parent.status !== "Active") {
          fail("company.not_active", "newParentId: an archived company cannot receive children");
        }
        parentPath = parent.path;
        depth = parent.depth + 1;
      }
      if (node.parentId === newParentId) return node;
      await assertSlugFree(tx, newParentId, node.slug, node.id);

      const newPath = `${parentPath}${node.id}/`;
      await tx.update(c).set({ parentId: newParentId }).where(eq(c.id, node.id));
      await tx
        .update(c)
        .set({
          path: sql`${newPath} || substr(${c.path}, ${node.path.length + 1})`,
          depth: sql`${c.depth} + ${depth - node.depth}`,
        })
        .where(inSubtree(c.path, node.path));
      await recordAudit(tx, deps.clock, actor, {
        action: "company.reparented",
        entityType: "company",
        entityId: node.id,
        meta: { fromParentId: node.parentId, toParentId: newParentId, descendants: subtree.length - 1 },
      });
      return (await findCompany(tx, node.id))!;
    }),
  );
  return toCompanyResponse(moved);
}
