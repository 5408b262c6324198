import { asc, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { CompanyResponse } from "@licensing/contracts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { authorizeCompany, companyScopeFilter, inSubtree, visibleCompanyScope } from "../policy/index.ts";
import { toCompanyResponse } from "./company-response.ts";

const c = tables.companies;
// Tree order: parents before children, siblings by name.
const treeOrder = [asc(c.depth), asc(c.name), asc(c.id)];

/** Every company the actor can see: all for operators, the membership's subtree otherwise. */
export async function listCompanies(deps: Deps, actor: Actor): Promise<CompanyResponse[]> {
  const scope = await visibleCompanyScope(deps.db, actor);
  const rows = await deps.db
    .select()
    .from(c)
    .where(companyScopeFilter(scope, c.path))
    .orderBy(...treeOrder);
  return rows.map(toCompanyResponse);
}

export async function getCompany(deps: Deps, actor: Actor, id: string): Promise<CompanyResponse> {
  return toCompanyResponse(await authorizeCompany(deps.db, actor, id, "viewer"));
}

export async function listChildren(deps: Deps, actor: Actor, id: string): Promise<CompanyResponse[]> {
  await authorizeCompany(deps.db, actor, id, "viewer");
  const rows = await deps.db
    .select()
    .from(c)
    .where(eq(c.parentId, id))
    .orderBy(...treeOrder);
  return rows.map(toCompanyResponse);
}

/** The company and everything below it, parents first. */
export async function listSubtree(deps: Deps, actor: Actor, id: string): Promise<CompanyResponse[]> {
  const company = await authorizeCompany(deps.db, actor, id, "viewer");
  const rows = await deps.db
    .select()
    .from(c)
    .where(inSubtree(c.path, company.path))
    .orderBy(...treeOrder);
  return rows.map(toCompanyResponse);
}
