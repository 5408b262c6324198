import {
  ActivationParams,
  ActivationResponse,
  HeartbeatRecordResponse,
  HeartbeatsQuery,
  IdParams,
} from "@licensing/contracts";
import { activations } from "@licensing/core";
import { z } from "zod";
import { route } from "../route.ts";

const tags = ["Licenses"];

export const activationRoutes = [
  route({
    method: "get",
    path: "/panel/licenses/{id}/activations",
    summary: "Activations of a license (Viewer)",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: z.array(ActivationResponse),
    errors: ["license.not_found"],
    handler: ({ deps, actor, params }) => activations.listActivations(deps, actor, params.id),
  }),
  route({
    method: "get",
    path: "/panel/licenses/{id}/heartbeats",
    summary: "Latest heartbeats of a license (Viewer); limit 1..1000, default 100",
    tags,
    auth: "authenticated",
    params: IdParams,
    query: HeartbeatsQuery,
    response: z.array(HeartbeatRecordResponse),
    errors: ["license.not_found"],
    handler: ({ deps, actor, params, query }) =>
      activations.listHeartbeats(deps, actor, params.id, query.limit),
  }),
  route({
    method: "post",
    path: "/panel/licenses/{id}/activations/{activationId}/reset",
    summary: "Deactivate one activation and free its seat (Admin; idempotent)",
    tags,
    auth: "authenticated",
    params: ActivationParams,
    errors: ["license.not_found", "activation.not_found", "auth.forbidden"],
    handler: ({ deps, actor, params }) =>
      activations.resetActivation(deps, actor, params.id, params.activationId),
  }),
];
