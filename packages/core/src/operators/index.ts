export { listOperators, inviteOperator, setOperator } from "./operators.ts";
export { getOverview } from "./overview.ts";
export { webhookOverview } from "./webhook-overview.ts";
export { listTenants } from "./tenants.ts";
export { listAllLicenses } from "./licenses.ts";
