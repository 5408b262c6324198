import {
  ActivateRequest,
  ActivateResponse,
  ActivationRequest,
  ClientPublicKeyResponse,
  HeartbeatResponse,
  LicenseKeyParams,
} from "@licensing/contracts";
import { activations } from "@licensing/core";
import { requestInfo } from "../../http/request-info.ts";
import { route } from "../route.ts";
import { assertSignedBy } from "./signature.ts";

const tags = ["Client"];
const signed =
  " Signed: X-Service-Timestamp (unix seconds, ±300 s) and X-Service-Signature `v1=<hex>[,v2=<hex>]`, HMAC-SHA256 keyed with the license key over the timestamp (v1) or `timestamp.METHOD.path.sha256hex(body)` (v2; checked whenever sent, and required when the server runs with CLIENT_SIGNATURE_MIN_VERSION=v2).";
const hmacErrors = [
  "hmac.missing",
  "hmac.malformed",
  "hmac.stale",
  "hmac.mismatch",
  "hmac.v2_required",
] as const;

export const clientRoutes = [
  route({
    method: "post",
    path: "/client/activate",
    summary: "Activate a machine; returns the first offline marker",
    tags,
    auth: "public",
    body: ActivateRequest,
    response: ActivateResponse,
    errors: [
      "license.not_found",
      "license.not_active",
      "activation.fingerprint_mismatch",
      "activation.fingerprint_required",
      "activation.not_bound",
      "activation.seat_limit_reached",
    ],
    handler: ({ deps, body, req }) => activations.activate(deps, body, requestInfo(req)),
  }),
  route({
    method: "post",
    path: "/client/heartbeat",
    summary: `Report that an activation is alive; returns a fresh offline marker.${signed}`,
    tags,
    auth: "public",
    body: ActivationRequest,
    response: HeartbeatResponse,
    errors: [...hmacErrors, "license.not_found", "license.not_active", "activation.not_found"],
    handler({ deps, body, req }) {
      assertSignedBy(deps, req, body.licenseKey, body.activationId);
      return activations.heartbeat(deps, body);
    },
  }),
  route({
    method: "post",
    path: "/client/deactivate",
    summary: `Release an activation's seat (idempotent).${signed}`,
    tags,
    auth: "public",
    body: ActivationRequest,
    errors: [...hmacErrors, "license.not_found", "activation.not_found"],
    handler({ deps, body, req }) {
      assertSignedBy(deps, req, body.licenseKey, body.activationId);
      return activations.deactivate(deps, body, requestInfo(req));
    },
  }),
  route({
    method: "get",
    path: "/client/public-key/{licenseKey}",
    summary: "The public key that verifies the license's token and markers",
    tags,
    auth: "public",
    params: LicenseKeyParams,
    response: ClientPublicKeyResponse,
    errors: ["license.not_found"],
    handler: ({ deps, params }) => activations.clientPublicKey(deps, params.licenseKey),
  }),
];
