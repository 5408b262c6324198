import { DistributionQuery, DistributionResponse, UsageQuery, UsageResponse } from "@licensing/contracts";
import { analytics } from "@licensing/core";
import { operation } from "../operation/operation.ts";

const tags = ["Analytics"];
const scope =
  "Operators without companyId: the whole platform; others: their visible subtree. companyId narrows to " +
  "that company's subtree and needs Viewer on it.";

export const analyticsOperations = {
  usage: operation({
    method: "get",
    path: "/panel/analytics/usage",
    summary: `Activations, heartbeats and licenses issued per UTC day. ${scope}`,
    tags,
    auth: "authenticated",
    query: UsageQuery,
    response: UsageResponse,
    errors: ["analytics.invalid_range", "analytics.range_too_large", "auth.company_out_of_scope"],
    handler: ({ deps, actor, input }) => analytics.getUsage(deps, actor, input),
  }),
  distribution: operation({
    method: "get",
    path: "/panel/analytics/distribution",
    summary: `Licenses and active activations per template, top companies by activations. ${scope}`,
    tags,
    auth: "authenticated",
    query: DistributionQuery,
    response: DistributionResponse,
    errors: ["auth.company_out_of_scope"],
    handler: ({ deps, actor, input }) => analytics.getDistribution(deps, actor, input),
  }),
};
