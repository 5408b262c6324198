import type { CompanyRow } from "@licensing/db";
import type { CompanyResponse } from "@licensing/contracts";

export const toCompanyResponse = (c: CompanyRow): CompanyResponse => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  parentId: c.parentId,
  path: c.path,
  depth: c.depth,
  status: c.status,
  contactEmail: c.contactEmail,
  createdAt: c.createdAt.toISOString(),
});
