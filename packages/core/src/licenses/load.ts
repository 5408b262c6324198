import { eq } from "drizzle-orm";
import { tables, type CompanyRow, type Executor, type LicenseRow } from "@licensing/db";
import type { Actor } from "../auth/actor.ts";
import { fail } from "../errors.ts";
import {
  authorizeFoundCompany,
  authorizeThroughCompany,
  findCompany,
  type MinimumRole,
} from "../policy/index.ts";

/**
 * A license the actor may act on with at least `minimum` on its company. Unknown, or outside the
 * actor's visible subtree: `license.not_found` (404); visible with a lower role: `auth.forbidden`.
 * `forUpdate` locks the license row until the transaction ends.
 */
export async function loadLicense(
  executor: Executor,
  actor: Actor,
  licenseId: string,
  minimum: MinimumRole,
  options: { forUpdate?: boolean } = {},
): Promise<{ license: LicenseRow; company: CompanyRow }> {
  const query = executor.select().from(tables.licenses).where(eq(tables.licenses.id, licenseId)).limit(1);
  const [license] = options.forUpdate ? await query.for("update") : await query;
  const company = license && (await findCompany(executor, license.companyId));
  // Not authorizeCompany: its 404 would name the company, which must stay unknown to outsiders.
  authorizeThroughCompany(actor, license && company, minimum, {
    notFound: ["license.not_found", `No license with id ${licenseId} is visible to you`],
    forbidden: `This operation needs the ${minimum} role on the license's company`,
  });
  return { license: license!, company: company! };
}

/** A company that may receive a license: visible with Admin, and not archived. */
export async function authorizeIssuingCompany(executor: Executor, actor: Actor, companyId: string) {
  return authorizeFoundIssuingCompany(actor, companyId, await findCompany(executor, companyId));
}

/** `authorizeIssuingCompany` on a company already looked up (bulk issue looks them all up at once). */
export function authorizeFoundIssuingCompany(
  actor: Actor,
  companyId: string,
  company: CompanyRow | undefined,
): CompanyRow {
  const found = authorizeFoundCompany(actor, companyId, company, "admin");
  if (found.status !== "Active") {
    fail("license.company_not_active", `Company ${companyId} is archived; licenses cannot be issued to it`);
  }
  return found;
}
