export { listCompanies, getCompany, listChildren, listSubtree } from "./queries.ts";
export { createCompany, archiveCompany } from "./mutations.ts";
export { reparentCompany } from "./reparent.ts";
export { toCompanyResponse } from "./company-response.ts";
