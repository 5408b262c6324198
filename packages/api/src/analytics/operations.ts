import {
  ConcurrencyQuery,
  ConcurrencyResponse,
  DistributionQuery,
  DistributionResponse,
  UsageQuery,
  UsageResponse,
} from "@licensing/contracts";
import { analytics } from "@licensing/core";
import { operation } from "../operation/operation.ts";

const tags = ["Analytics"];

export const analyticsOperations = {
  usage: operation({
    method: "get",
    reads: "replica",
    path: "/panel/analytics/usage",
    summary: "Activity per UTC day",
    description:
      "Activations, heartbeats and licenses issued per UTC day over a window (by default the last 30 days; at most 366). Any authenticated caller: operators without `companyId` see the whole platform, others their visible subtree; `companyId` narrows to that company's subtree and needs Viewer on it. It changes nothing.",
    tags,
    auth: "authenticated",
    query: UsageQuery,
    response: UsageResponse,
    errors: ["analytics.invalid_range", "analytics.range_too_large", "auth.company_out_of_scope"],
    handler: ({ deps, actor, input }) => analytics.getUsage(deps, actor, input),
  }),
  distribution: operation({
    method: "get",
    reads: "replica",
    path: "/panel/analytics/distribution",
    summary: "Licenses and activations by template and company",
    description:
      "Licenses and live activations per template, and the companies with the most live activations. Any authenticated caller: operators without `companyId` see the whole platform, others their visible subtree; `companyId` narrows to that company's subtree and needs Viewer on it. It changes nothing.",
    tags,
    auth: "authenticated",
    query: DistributionQuery,
    response: DistributionResponse,
    errors: ["auth.company_out_of_scope"],
    handler: ({ deps, actor, input }) => analytics.getDistribution(deps, actor, input),
  }),
  concurrency: operation({
    method: "get",
    reads: "replica",
    path: "/panel/analytics/concurrency",
    summary: "Floating seats per UTC day",
    description:
      "For the floating licenses in scope, per UTC day over a window (by default the last 30 days; at most 366; today up to now): `peakLeases`, the sum of each license's highest number of leases live at once, and `fullSeconds`, the seconds during which a license had all its seats leased, summed over the licenses; `maxSeats` is the sum of their seat limits now. `templateId` narrows to one template. Any authenticated caller: operators without `companyId` see the whole platform, others their visible subtree; `companyId` narrows to that company's subtree and needs Viewer on it. It changes nothing.",
    tags,
    auth: "authenticated",
    query: ConcurrencyQuery,
    response: ConcurrencyResponse,
    errors: ["analytics.invalid_range", "analytics.range_too_large", "auth.company_out_of_scope"],
    handler: ({ deps, actor, input }) => analytics.getConcurrency(deps, actor, input),
  }),
};
