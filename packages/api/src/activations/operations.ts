import {
  ActivationParams,
  ActivationResponse,
  HeartbeatRecordResponse,
  HeartbeatsQuery,
  IdParams,
} from "@licensing/contracts";
import { activations } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Licenses"];

/** The panel's view of a license's machines; the client API itself is in `client/operations.ts`. */
export const activationOperations = {
  list: operation({
    method: "get",
    path: "/panel/licenses/{id}/activations",
    summary: "Activations of a license",
    description:
      "A license's activations (its machines), live ones first, newest first. Needs Viewer on the license's company; it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: z.array(ActivationResponse),
    errors: ["license.not_found"],
    handler: ({ deps, actor, input }) => activations.listActivations(deps, actor, input.id),
  }),
  heartbeats: operation({
    method: "get",
    path: "/panel/licenses/{id}/heartbeats",
    summary: "Latest heartbeats of a license",
    description:
      "The latest heartbeats of a license's activations (`limit` 1 to 1000, default 100). Needs Viewer on the license's company; it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    query: HeartbeatsQuery,
    response: z.array(HeartbeatRecordResponse),
    errors: ["license.not_found"],
    handler: ({ deps, actor, input }) => activations.listHeartbeats(deps, actor, input.id, input.limit),
  }),
  reset: operation({
    method: "post",
    path: "/panel/licenses/{id}/activations/{activationId}/reset",
    summary: "Deactivate one activation",
    description:
      "Deactivates one activation of the license and frees its seat, as the program's own deactivate would; resetting an inactive one succeeds again. Needs Admin on the license's company; recorded in the audit log.",
    events: ["license.deactivated"],
    tags,
    auth: "authenticated",
    params: ActivationParams,
    errors: ["license.not_found", "activation.not_found", "auth.forbidden"],
    handler: ({ deps, actor, input }) =>
      activations.resetActivation(deps, actor, input.id, input.activationId),
  }),
  resetDeviceBudget: operation({
    method: "post",
    path: "/panel/licenses/{id}/device-budget/reset",
    summary: "Reset a license's device budget",
    description:
      "Clears the license's device budget: the new devices activated so far stop counting, so new machines may activate again at once (up to `maxNewDevicesPerWindow` within the window), and the next refusal publishes `license.device_budget_exhausted` again. Activations and seats are untouched. Needs Admin on the license's company; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["license.not_found", "auth.forbidden"],
    handler: ({ deps, actor, input }) => activations.resetDeviceBudget(deps, actor, input.id),
  }),
};
