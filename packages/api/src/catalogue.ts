import { activationOperations } from "./activations/operations.ts";
import { analyticsOperations } from "./analytics/operations.ts";
import { apiTokenOperations } from "./api-tokens/operations.ts";
import { auditOperations } from "./audit/operations.ts";
import { authOperations } from "./auth/operations.ts";
import { clientOperations } from "./client/operations.ts";
import { companyOperations } from "./companies/operations.ts";
import { leaseOperations } from "./leases/operations.ts";
import { licenseOperations } from "./licenses/operations.ts";
import { flattenOperations } from "./operation/operation.ts";
import { operatorOperations } from "./operator/operations.ts";
import { templateOperations } from "./templates/operations.ts";
import { userOperations } from "./users/operations.ts";
import { webhookOperations } from "./webhooks/operations.ts";

/**
 * Every panel operation, once. The keys are the tRPC procedure names (`licenses.issue`); the order is
 * the REST routes' order.
 */
export const panelOperations = {
  auth: authOperations,
  operator: operatorOperations,
  templates: templateOperations,
  licenses: licenseOperations,
  companies: companyOperations,
  users: userOperations,
  apiTokens: apiTokenOperations,
  audit: auditOperations,
  analytics: analyticsOperations,
  activations: activationOperations,
  leases: leaseOperations,
  webhooks: webhookOperations,
};

/** The whole API: the client contour (REST only) and the panel. */
export const operations = { client: clientOperations, ...panelOperations };

/** Every operation with its dotted name, client first: the REST routes and the OpenAPI document. */
export const operationList = flattenOperations(operations);
