import { IdParams, LeaseParams, LicenseLeaseResponse } from "@licensing/contracts";
import { leases } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Licenses"];

/** The panel's view of a floating license's leases; the client API's lease endpoints are in `client/`. */
export const leaseOperations = {
  list: operation({
    method: "get",
    reads: "replica",
    path: "/panel/licenses/{id}/leases",
    summary: "Live leases of a floating license",
    description:
      "The license's live leases (the seats in use of a floating license), oldest first: the lease and activation ids, the machine name, when the seat was acquired and when it expires unless renewed, and until when it is borrowed for offline work (null when it is not). A node-locked license has none. Needs Viewer on the license's company; it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: z.array(LicenseLeaseResponse),
    errors: ["license.not_found"],
    handler: ({ deps, actor, input }) => leases.listLeases(deps, actor, input.id),
  }),
  forceRelease: operation({
    method: "delete",
    path: "/panel/leases/{leaseId}",
    summary: "Force-release a lease",
    description:
      "Ends the lease now and frees its seat: its holder's next renew is refused with 410 `lease.released` (the program then acquires again, or waits for a seat). Releasing a lease released already succeeds again. Needs Admin on the license's company; recorded in the audit log (`lease.force_released`).",
    tags,
    auth: "authenticated",
    params: LeaseParams,
    errors: ["lease.not_found", "auth.forbidden"],
    handler: ({ deps, actor, input }) => leases.forceReleaseLease(deps, actor, input.leaseId),
  }),
};
