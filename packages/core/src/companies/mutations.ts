import { randomUUID } from "node:crypto";
import { and, eq, isNull, ne } from "drizzle-orm";
import { isUniqueViolation, tables, type CompanyRow, type Executor } from "@licensing/db";
import { COMPANY_SLUG_PATTERN, type CompanyResponse, type CreateCompanyRequest } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { assertOperator, authorizeCompany } from "../policy/index.ts";
import { toCompanyResponse } from "./company-response.ts";

const c = tables.companies;

export function assertValidSlug(slug: string) {
  if (!COMPANY_SLUG_PATTERN.test(slug)) {
    fail(
      "company.invalid_slug",
      "slug: 1 to 64 characters from [a-z0-9-], not starting or ending with a hyphen",
    );
  }
}

/** Loads a company row with a row lock; `share` keeps it from moving or being archived meanwhile. */
export async function lockCompany(executor: Executor, id: string, mode: "share" | "update") {
  const [row] = await executor.select().from(c).where(eq(c.id, id)).for(mode);
  return row;
}

export async function assertSlugFree(
  executor: Executor,
  parentId: string | null,
  slug: string,
  exceptId?: string,
) {
  const [taken] = await executor
    .select({ id: c.id })
    .from(c)
    .where(
      and(
        parentId ? eq(c.parentId, parentId) : isNull(c.parentId),
        eq(c.slug, slug),
        exceptId ? ne(c.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) slugTaken(slug);
}

export const slugTaken = (slug?: string): never =>
  fail("company.slug_taken", `slug: a sibling company already uses ${slug ? `"${slug}"` : "this slug"}`);

/** Runs `work`, turning a race on the sibling-slug constraint into the same 409 as the explicit check. */
export async function withSlugConflict<T>(slug: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, "companies_sibling_slug_key")) slugTaken(slug);
    throw error;
  }
}

/** Creates a root company (operators) or a child (Admin on the parent, which must be Active). */
export async function createCompany(
  deps: Deps,
  actor: Actor,
  input: CreateCompanyRequest,
): Promise<CompanyResponse> {
  const parentId = input.parentId ?? null;
  if (!parentId) assertOperator(actor);
  assertValidSlug(input.slug);
  const id = randomUUID();
  const company = await withSlugConflict(input.slug, () =>
    deps.db.transaction(async (tx) => {
      let parent: CompanyRow | undefined;
      if (parentId) {
        // The share lock makes a concurrent reparent of the parent finish first (or wait for us), so the
        // child's path is built from the parent's current path.
        await lockCompany(tx, parentId, "share");
        parent = await authorizeCompany(tx, actor, parentId, "admin");
        if (parent.status !== "Active") {
          fail("company.not_active", "parentId: an archived company cannot receive children");
        }
      }
      await assertSlugFree(tx, parentId, input.slug);
      const [created] = await tx
        .insert(c)
        .values({
          id,
          name: input.name,
          slug: input.slug,
          parentId,
          path: `${parent?.path ?? "/"}${id}/`,
          depth: parent ? parent.depth + 1 : 0,
          contactEmail: input.contactEmail ?? null,
          createdAt: deps.clock.now(),
        })
        .returning();
      await recordAudit(tx, deps.clock, actor, {
        action: "company.created",
        entityType: "company",
        entityId: id,
        meta: { name: input.name, slug: input.slug, parentId },
      });
      return created!;
    }),
  );
  return toCompanyResponse(company);
}

/** Archives a company (Owner); idempotent. Its subtree is left as it is. */
export async function archiveCompany(deps: Deps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await lockCompany(tx, id, "update");
    const company = await authorizeCompany(tx, actor, id, "owner");
    if (company.status === "Archived") return;
    await tx.update(c).set({ status: "Archived" }).where(eq(c.id, id));
    await recordAudit(tx, deps.clock, actor, {
      action: "company.archived",
      entityType: "company",
      entityId: id,
      meta: { slug: company.slug },
    });
  });
}
