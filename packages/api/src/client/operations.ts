import {
  ActivateRequest,
  ActivateResponse,
  ActivationRequest,
  ClientPublicKeyResponse,
  HeartbeatResponse,
  LicenseKeyParams,
} from "@licensing/contracts";
import { activations } from "@licensing/core";
import { operation } from "../operation/operation.ts";
import { assertSignedBy } from "./signature.ts";

const tags = ["Client"];
const restOnly = "the client API: the SDK speaks HMAC-signed HTTP, not tRPC";
const signed =
  " Signed: X-Service-Timestamp (unix seconds, ±300 s) and X-Service-Signature `v1=<hex>[,v2=<hex>]`, HMAC-SHA256 keyed with the license key over the timestamp (v1) or `timestamp.METHOD.path.sha256hex(body)` (v2; checked whenever sent, and required when the server runs with CLIENT_SIGNATURE_MIN_VERSION=v2).";
const hmacErrors = [
  "hmac.missing",
  "hmac.malformed",
  "hmac.stale",
  "hmac.mismatch",
  "hmac.v2_required",
] as const;

/** What installed programs call: public, the license key in the body, mutations after activate signed. */
export const clientOperations = {
  activate: operation({
    method: "post",
    path: "/client/activate",
    summary: "Activate a machine; returns the first offline marker",
    tags,
    auth: "public",
    body: ActivateRequest,
    response: ActivateResponse,
    restOnly,
    errors: [
      "license.not_found",
      "license.not_active",
      "activation.fingerprint_mismatch",
      "activation.fingerprint_required",
      "activation.not_bound",
      "activation.seat_limit_reached",
    ],
    handler: ({ deps, input, request }) => activations.activate(deps, input, request.info),
  }),
  heartbeat: operation({
    method: "post",
    path: "/client/heartbeat",
    summary: `Report that an activation is alive; returns a fresh offline marker.${signed}`,
    tags,
    auth: "public",
    body: ActivationRequest,
    response: HeartbeatResponse,
    restOnly,
    errors: [...hmacErrors, "license.not_found", "license.not_active", "activation.not_found"],
    handler({ deps, input, request }) {
      assertSignedBy(deps, request, input.licenseKey, input.activationId);
      return activations.heartbeat(deps, input);
    },
  }),
  deactivate: operation({
    method: "post",
    path: "/client/deactivate",
    summary: `Release an activation's seat (idempotent).${signed}`,
    tags,
    auth: "public",
    body: ActivationRequest,
    restOnly,
    errors: [...hmacErrors, "license.not_found", "activation.not_found"],
    handler({ deps, input, request }) {
      assertSignedBy(deps, request, input.licenseKey, input.activationId);
      return activations.deactivate(deps, input, request.info);
    },
  }),
  publicKey: operation({
    method: "get",
    path: "/client/public-key/{licenseKey}",
    summary: "The public key that verifies the license's token and markers",
    tags,
    auth: "public",
    params: LicenseKeyParams,
    response: ClientPublicKeyResponse,
    restOnly,
    errors: ["license.not_found"],
    handler: ({ deps, input }) => activations.clientPublicKey(deps, input.licenseKey),
  }),
};
