import {
  ActivationParams,
  ActivationResponse,
  HeartbeatRecordResponse,
  HeartbeatsQuery,
  IdParams,
  OfflineActivationBody,
  OfflineActivationResult,
  OfflineDeactivationBody,
  OfflineDeactivationResult,
} from "@licensing/contracts";
import { activations } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Licenses"];

/** The panel's view of a license's machines; the client API itself is in `client/operations.ts`. */
export const activationOperations = {
  list: operation({
    method: "get",
    reads: "replica",
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
  offlineActivate: operation({
    method: "post",
    path: "/panel/licenses/{id}/offline-activations",
    summary: "Activate a machine without network",
    description:
      "Answers the `-----BEGIN LICENSE ACTIVATION REQUEST-----` block a machine without network made (the SDK's `createOfflineActivationRequest`). The request must name this license and carry the HMAC of its key, else `offline.request_invalid` and nothing is stored. The machine then activates under the rules of `POST /client/activate` (live license, binding, device budget, seats; its live activation is reused, a drifted one heals), with the same errors, and the activation is marked `offline`. The answer's `response` is a `-----BEGIN LICENSE ACTIVATION-----` block (a JWS signed with the template's active key: license, activation, fingerprint, the request's nonce, `exp`) for the machine's `applyOfflineActivation`; it activates the machine until now + `validDays`, by default and at most until the license's expiry. The same request again answers the same activation with a new response; a request whose activation has ended is refused. Needs Admin on the license's company; recorded in the audit log.",
    events: ["license.activated"],
    tags,
    auth: "authenticated",
    params: IdParams,
    body: OfflineActivationBody,
    response: OfflineActivationResult,
    status: 201,
    errors: [
      "offline.request_invalid",
      "license.not_found",
      "license.not_active",
      "activation.fingerprint_mismatch",
      "activation.not_bound",
      "activation.device_budget_exhausted",
      "activation.seat_limit_reached",
      "auth.forbidden",
    ],
    handler: ({ deps, actor, input }) =>
      activations.activateOffline(deps, actor, input.id, {
        request: input.request,
        validDays: input.validDays,
      }),
  }),
  offlineDeactivate: operation({
    method: "post",
    path: "/panel/offline-deactivations",
    summary: "Free the seat of a machine without network",
    description:
      "Takes the `-----BEGIN LICENSE DEACTIVATION-----` receipt a machine wrote when it deleted its offline certificate (the SDK's `deactivateOffline`) and frees that activation's seat. The receipt must carry the HMAC of the license's key and name the certificate the activation holds; a forged, changed or unknown receipt (a license you cannot see included) is `offline.receipt_invalid`. The same receipt again answers the same. Needs Admin on the license's company; recorded in the audit log.",
    events: ["license.deactivated"],
    tags,
    auth: "authenticated",
    body: OfflineDeactivationBody,
    response: OfflineDeactivationResult,
    errors: ["offline.receipt_invalid", "auth.forbidden"],
    handler: ({ deps, actor, input }) =>
      activations.deactivateOffline(deps, actor, { receipt: input.receipt }),
  }),
};
