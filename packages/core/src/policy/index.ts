/**
 * The one place that decides who may do what on which company (spec §5 "Roles" and "Minimum roles per
 * operation"). Every use-case of both transports asks here; no handler re-checks.
 *
 * - Operators pass everything and see every company.
 * - Anyone else has at most one membership (user.company_id + user.role; a personal access token is
 *   Admin of its company). It gives that role on the company and its whole subtree, nothing above or beside.
 * - A company outside the visible subtree is reported as missing (404), never as forbidden, so its
 *   existence is not revealed; a `companyId=` filter outside it is `auth.company_out_of_scope` (403).
 */
import type { CompanyRole, ErrorCode } from "@licensing/contracts";
import { eq, inArray, like, type AnyColumn, type SQL } from "drizzle-orm";
import { tables, type CompanyRow, type Executor } from "@licensing/db";
import type { Actor } from "../auth/actor.ts";
import { fail } from "../errors.ts";

export type MinimumRole = CompanyRole;

const rank: Record<CompanyRole, number> = { viewer: 1, admin: 2, owner: 3 };

/** Placeholder root path of an actor without a membership: company paths are uuids, so it matches nothing. */
export const NO_COMPANY_PATH = "/-/";

export type CompanyScope = { all: true } | { all: false; rootPath: string };

export function assertOperator(actor: Actor) {
  if (!actor.isOperator) fail("auth.operator_required", "This operation needs an operator account");
}

/** The actor's membership, or null (operators without a company, or users without one). */
export function membershipOf(actor: Actor): { companyId: string; role: CompanyRole } | null {
  if (actor.kind === "token") return { companyId: actor.companyId, role: "admin" };
  return actor.companyId && actor.role ? { companyId: actor.companyId, role: actor.role } : null;
}

/**
 * The actor's role on a company: "operator" for operators, the membership's role when the company is the
 * member's company or below it, null when it is outside the visible subtree.
 */
export function roleOn(actor: Actor, company: Pick<CompanyRow, "path">): CompanyRole | "operator" | null {
  if (actor.isOperator) return "operator";
  const member = membershipOf(actor);
  return member && company.path.includes(`/${member.companyId}/`) ? member.role : null;
}

/** True when the actor holds at least `minimum` on the company (operators always do). */
export function hasRole(actor: Actor, company: Pick<CompanyRow, "path">, minimum: MinimumRole): boolean {
  const role = roleOn(actor, company);
  return role === "operator" || (role !== null && rank[role] >= rank[minimum]);
}

export async function findCompany(executor: Executor, companyId: string): Promise<CompanyRow | undefined> {
  const [company] = await executor
    .select()
    .from(tables.companies)
    .where(eq(tables.companies.id, companyId))
    .limit(1);
  return company;
}

/**
 * Companies by id in one query, keyed by the id as stored (lower case); an unknown id has no entry. For
 * operations that authorize many companies at once (bulk issue): look one up with `.get(id.toLowerCase())`.
 */
export async function findCompanies(
  executor: Executor,
  companyIds: readonly string[],
): Promise<Map<string, CompanyRow>> {
  const ids = [...new Set(companyIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return new Map();
  const companies = await executor.select().from(tables.companies).where(inArray(tables.companies.id, ids));
  return new Map(companies.map((c) => [c.id, c]));
}

/**
 * The rule for anything reached through its company (the company itself, a license, a user, an API
 * token): unknown, or under a company outside the actor's visible subtree, is `notFound` (404, so its
 * existence is not revealed); visible with a role below `minimum` is `auth.forbidden` (403).
 */
export function authorizeThroughCompany<C extends Pick<CompanyRow, "path">>(
  actor: Actor,
  company: C | undefined,
  minimum: MinimumRole,
  refusal: { notFound: [ErrorCode, string]; forbidden: string },
): asserts company is C {
  if (!company || roleOn(actor, company) === null) {
    const [code, message] = refusal.notFound;
    return fail(code, message);
  }
  if (!hasRole(actor, company, minimum)) fail("auth.forbidden", refusal.forbidden);
}

/**
 * Loads a company the actor may act on with at least `minimum`.
 * Throws NotFound (`notFoundCode`, default `company.not_found`) when it does not exist or lies outside the
 * actor's visible subtree, and `auth.forbidden` (403) when it is visible but the actor's role is lower.
 * Pass another `notFoundCode` when the company is reached through another entity (e.g. a user's company,
 * answered as `user.not_found`), so the 404 names what the caller asked for.
 */
export async function authorizeCompany(
  executor: Executor,
  actor: Actor,
  companyId: string,
  minimum: MinimumRole,
  notFoundCode: ErrorCode = "company.not_found",
): Promise<CompanyRow> {
  return authorizeFoundCompany(
    actor,
    companyId,
    await findCompany(executor, companyId),
    minimum,
    notFoundCode,
  );
}

/** `authorizeCompany` on a company already looked up (`undefined`: there is none with that id). */
export function authorizeFoundCompany(
  actor: Actor,
  companyId: string,
  company: CompanyRow | undefined,
  minimum: MinimumRole,
  notFoundCode: ErrorCode = "company.not_found",
): CompanyRow {
  authorizeThroughCompany(actor, company, minimum, {
    notFound: [notFoundCode, `No ${notFoundCode.split(".")[0]} with id ${companyId} is visible to you`],
    forbidden: `This operation needs the ${minimum} role on company ${companyId}`,
  });
  return company;
}

/**
 * For `companyId=` filters of list queries: the company, when it lies inside the actor's visible subtree
 * and the actor holds at least `minimum` there. Outside the subtree (or unknown, for a non-operator, so
 * existence is not revealed): `auth.company_out_of_scope` (403). Inside with a lower role: `auth.forbidden`.
 * An operator filtering by an unknown id gets `company.not_found`.
 */
export async function assertCompanyFilterInScope(
  executor: Executor,
  actor: Actor,
  companyId: string,
  minimum: MinimumRole = "viewer",
): Promise<CompanyRow> {
  const company = await findCompany(executor, companyId);
  if (!company && actor.isOperator) return fail("company.not_found", `No company with id ${companyId}`);
  if (!company || roleOn(actor, company) === null) {
    return fail("auth.company_out_of_scope", `Company ${companyId} is outside the companies visible to you`);
  }
  if (!hasRole(actor, company, minimum)) {
    fail("auth.forbidden", `This operation needs the ${minimum} role on company ${company.id}`);
  }
  return company;
}

/**
 * What list queries may return: everything for operators, otherwise the subtree under the actor's
 * membership (`rootPath` is that company's path; match `path LIKE rootPath || '%'`). Async because the
 * membership company's path is read from the database. An actor without a membership gets
 * NO_COMPANY_PATH, which matches no company. Prefer `companyScopeFilter` to build the condition.
 */
export async function visibleCompanyScope(executor: Executor, actor: Actor): Promise<CompanyScope> {
  if (actor.isOperator) return { all: true };
  const member = membershipOf(actor);
  const company = member && (await findCompany(executor, member.companyId));
  return { all: false, rootPath: company?.path ?? NO_COMPANY_PATH };
}

/**
 * A WHERE condition keeping rows whose company path (`pathColumn`, e.g. `tables.companies.path` of a
 * joined company) lies inside the scope; undefined (no condition) for operators. Uses the
 * `companies_subtree_by_path` (text_pattern_ops) index.
 */
export function companyScopeFilter(scope: CompanyScope, pathColumn: AnyColumn): SQL | undefined {
  if (scope.all) return undefined;
  return like(pathColumn, `${escapeLike(scope.rootPath)}%`);
}

/** A subtree condition for a known root path (the root itself included). */
export const inSubtree = (pathColumn: AnyColumn, rootPath: string): SQL =>
  like(pathColumn, `${escapeLike(rootPath)}%`);

// Paths hold uuids and slashes only, but escaping keeps LIKE literal whatever a path ever contains.
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
