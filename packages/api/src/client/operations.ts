import {
  AcquireLeaseRequest,
  ActivateRequest,
  ActivateResponse,
  ActivationRequest,
  BorrowLeaseRequest,
  ClientPublicKeyResponse,
  HeartbeatResponse,
  LeaseRequest,
  LeaseResponse,
  LicenseKeyParams,
  MachinesRequest,
  MachinesResponse,
  RevocationListResponse,
  RevocationsQuery,
} from "@licensing/contracts";
import { activations, leases, revocations } from "@licensing/core";
import { operation } from "../operation/operation.ts";
import { assertSignedBy } from "./signature.ts";

const tags = ["Client"];
const restOnly = "the client API: the SDK speaks HMAC-signed HTTP, not tRPC";
const hmacErrors = [
  "hmac.missing",
  "hmac.malformed",
  "hmac.stale",
  "hmac.mismatch",
  "hmac.v2_required",
] as const;

/** The refusals every lease endpoint shares: the license, in the order they are checked. */
const leaseLicenseErrors = [
  "license.not_found",
  "license.not_active",
  "license.revoked",
  "lease.not_floating",
] as const;

/** What installed programs call: public, the license key in the body, mutations after activate signed. */
export const clientOperations = {
  activate: operation({
    method: "post",
    path: "/client/activate",
    summary: "Activate a machine; returns the first offline marker",
    description:
      "Takes a seat of the license for this machine and returns the activation's id, a signed offline marker (`heartbeatToken`), the heartbeat interval and how many days the program may run without a heartbeat. The license must be Active and unexpired; its binding decides whether `hwFingerprint` is needed and which machine may activate (a `firstActivation` license pins the first machine that activates). A machine with a live activation gets that one back and takes no second seat. A machine whose `hwFingerprint` changed but whose `components` match exactly one live activation at the license's `fingerprintMatch` threshold heals it: the same `activationId` with `healed: true`, the new fingerprint stored, no seat taken (a binding follows). A device new to the license (not live on it in the last 90 days) counts against the license's device budget; over it the answer is 429 `activation.device_budget_exhausted` with `retryAt` and `Retry-After`. With every seat in use the 409 lists the `machines` that hold them. On a floating license an activation registers the machine and takes no seat (the seats are leases, `POST /client/leases`); its optional `limits.maxMachines` caps the registered machines (409 `activation.machine_limit_reached`, with the `machines`). A revoked license whose revocation is `immediate` is refused with 403 `license.revoked`, whose `revocation` is signed by the template's key (any other license that is not live: `license.not_active`). When the marker's key is not the template's root, the marker names it (`kid`) and `certificate` carries its certificate. Called by the installed program (the SDK) with the license key in the body; records the activation (or the heal) and an audit entry.",
    events: ["license.activated", "license.activation_healed", "license.device_budget_exhausted"],
    tags,
    auth: "public",
    body: ActivateRequest,
    response: ActivateResponse,
    restOnly,
    errors: [
      "license.not_found",
      "license.not_active",
      "license.revoked",
      "activation.fingerprint_mismatch",
      "activation.fingerprint_required",
      "activation.not_bound",
      "activation.device_budget_exhausted",
      "activation.seat_limit_reached",
      "activation.machine_limit_reached",
    ],
    handler: ({ deps, input, request }) => activations.activate(deps, input, request.info),
  }),
  heartbeat: operation({
    method: "post",
    path: "/client/heartbeat",
    summary: "Report that an activation is alive; returns a fresh offline marker",
    description:
      "Records a heartbeat of a live activation (its `lastHeartbeatAt` and the license's) and returns a fresh signed offline marker. Refused when the license is no longer Active (`license.not_active`: suspended, revoked or expired; a license revoked with `immediate` revocation: 403 `license.revoked` with the signed `revocation`) or the activation was deactivated (`activation.not_found`): the program then stops or activates again. When the marker's key is not the template's root, `certificate` carries its certificate; when the license's own key was retired, `licenseCertificate` carries that key's ended certificate. Called by the installed program, signed with the license key.",
    signed: true,
    tags,
    auth: "public",
    body: ActivationRequest,
    response: HeartbeatResponse,
    restOnly,
    errors: [
      ...hmacErrors,
      "license.not_found",
      "license.not_active",
      "license.revoked",
      "activation.not_found",
    ],
    handler({ deps, input, request }) {
      assertSignedBy(deps, request, input.licenseKey, input.activationId);
      return activations.heartbeat(deps, input);
    },
  }),
  deactivate: operation({
    method: "post",
    path: "/client/deactivate",
    summary: "Release an activation's seat",
    description:
      "Deactivates the activation and frees its seat for another machine; the `license.deactivated` event and an audit entry are written only when it was live. Any activation of the license may be named, so a program can free another machine's seat (remote deactivation, with an `activationId` from `POST /client/machines` or a seat-limit refusal). Deactivating an activation that is already inactive succeeds again, so a retry is safe. Called by the installed program, signed with the license key.",
    signed: true,
    events: ["license.deactivated"],
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
  machines: operation({
    method: "post",
    path: "/client/machines",
    summary: "List the machines holding the license's seats",
    description:
      "The license's live activations (`activationId`, `machineName`, `activatedAt`, `lastHeartbeatAt`), oldest first, never a fingerprint or a component, so a program can show where the license is in use and free one with `POST /client/deactivate` (the remote deactivation: any live activation of the license, with the license key). Answers whatever the license's status. Called by the installed program, signed with the license key like a heartbeat; it changes nothing.",
    signed: true,
    tags,
    auth: "public",
    body: MachinesRequest,
    response: MachinesResponse,
    restOnly,
    errors: [...hmacErrors, "license.not_found"],
    handler({ deps, input, request }) {
      assertSignedBy(deps, request, input.licenseKey, null);
      return activations.listMachines(deps, input);
    },
  }),
  acquireLease: operation({
    method: "post",
    path: "/client/leases",
    summary: "Take a seat of a floating license: acquire a lease",
    description:
      "Takes one of a floating license's seats for the activation: 201 with the lease's id, when it expires unless renewed (`expiresAt`: `leaseSeconds` ahead, never past the license's expiry), when to renew (`renewAfterSeconds`, a third of the time it has left) and a signed `leaseToken` (like the offline marker, with the lease id and `exp = expiresAt`). If the activation already holds a live lease, 200 with that lease. With every seat (`limits.maxSeats`) leased, 409 `lease.seats_exhausted` lists the `holders` (machine name, acquired, expires) with `retryAt`, the earliest expiry, and `Retry-After`; the first such refusal in an hour publishes `license.seats_exhausted`. A license that is not live answers `license.not_active`, a node-locked one `lease.not_floating`. Called by the installed program, signed with the license key like a heartbeat.",
    signed: true,
    events: ["license.seats_exhausted"],
    tags,
    auth: "public",
    body: AcquireLeaseRequest,
    response: LeaseResponse,
    status: 201,
    restOnly,
    errors: [...hmacErrors, ...leaseLicenseErrors, "activation.not_found", "lease.seats_exhausted"],
    async handler({ deps, input, request }) {
      assertSignedBy(deps, request, input.licenseKey, input.activationId);
      const { lease, created } = await leases.acquireLease(deps, input);
      if (!created) request.setStatus(200);
      return lease;
    },
  }),
  renewLease: operation({
    method: "post",
    path: "/client/leases/renew",
    summary: "Renew a lease",
    description:
      "Keeps a live lease another `leaseSeconds` (never shortening a borrowed one) and answers as an acquire does, with a new `expiresAt`, `renewAfterSeconds` and `leaseToken`. An expired lease (the machine slept or lost the network) is brought back if a seat is free, else 409 `lease.seats_exhausted` as for an acquire; a lease released by its holder, force-released from the panel, or ended with its activation or its license's suspension or revocation answers 410 `lease.released`: acquire a new one. Called by the installed program, signed with the license key like a heartbeat.",
    signed: true,
    events: ["license.seats_exhausted"],
    tags,
    auth: "public",
    body: LeaseRequest,
    response: LeaseResponse,
    restOnly,
    errors: [
      ...hmacErrors,
      ...leaseLicenseErrors,
      "lease.not_found",
      "lease.released",
      "lease.seats_exhausted",
    ],
    handler({ deps, input, request }) {
      assertSignedBy(deps, request, input.licenseKey, null);
      return leases.renewLease(deps, input);
    },
  }),
  releaseLease: operation({
    method: "post",
    path: "/client/leases/release",
    summary: "Release a lease",
    description:
      "Ends the lease now and frees its seat for another machine, whatever the license's status (a borrowed lease returned early frees its seat at once). Releasing a lease released already succeeds again, so a retry is safe. Called by the installed program, signed with the license key like a heartbeat.",
    signed: true,
    tags,
    auth: "public",
    body: LeaseRequest,
    restOnly,
    errors: [...hmacErrors, "license.not_found", "lease.not_floating", "lease.not_found"],
    handler({ deps, input, request }) {
      assertSignedBy(deps, request, input.licenseKey, null);
      return leases.releaseLease(deps, input);
    },
  }),
  borrowLease: operation({
    method: "post",
    path: "/client/leases/borrow",
    summary: "Borrow a lease for offline work",
    description:
      "Keeps the lease until `until` (`expiresAt = until`), so the program may work offline without renewing; `until` must lie ahead, at most the license's `maxBorrowDays` from now (400 `lease.borrow_too_long`, also past the license's own expiry), and a license with `maxBorrowDays` 0 refuses with 403 `lease.borrow_not_allowed`. The borrowed lease holds its seat until `until` or its release (an early return frees the seat). An expired lease is brought back first if a seat is free, as a renew would. Called by the installed program, signed with the license key like a heartbeat.",
    signed: true,
    events: ["license.seats_exhausted"],
    tags,
    auth: "public",
    body: BorrowLeaseRequest,
    response: LeaseResponse,
    restOnly,
    errors: [
      ...hmacErrors,
      ...leaseLicenseErrors,
      "lease.borrow_not_allowed",
      "lease.not_found",
      "lease.released",
      "lease.borrow_too_long",
      "lease.seats_exhausted",
    ],
    handler({ deps, input, request }) {
      assertSignedBy(deps, request, input.licenseKey, null);
      return leases.borrowLease(deps, input);
    },
  }),
  revocations: operation({
    method: "get",
    path: "/client/revocations",
    summary: "A template's signed revocation list, for machines that never go online",
    description:
      "The licenses of the template with `immediate` revocation that were revoked at or after `since` (every one without it), oldest first, as `list`: a JWS signed by the template's Active key, its certificate in the header, which the SDK's `applyRevocationList` verifies offline with the root key it was built with. At most 10,000 licenses a page; the payload's `next` is the `cursor` of the following page (null on the last). The vendor ships the list with an update, or a person carries it to the machines. Licenses revoked gracefully are not listed (the spec's rule 5 governs them). Anyone may call it, rate-limited as the client API; it changes nothing.",
    tags,
    auth: "public",
    query: RevocationsQuery,
    response: RevocationListResponse,
    restOnly,
    errors: ["template.not_found"],
    handler: ({ deps, input }) => revocations.revocationList(deps, input),
  }),
  publicKey: operation({
    method: "get",
    path: "/client/public-key/{licenseKey}",
    summary: "The public key that verifies a license's token and markers",
    description:
      "Returns the hex Ed25519 public key of the signing key behind the license's current token, with which a program verifies its token and offline markers. Anyone who knows the license key may call; it changes nothing.",
    tags,
    auth: "public",
    params: LicenseKeyParams,
    response: ClientPublicKeyResponse,
    restOnly,
    errors: ["license.not_found"],
    handler: ({ deps, input }) => activations.clientPublicKey(deps, input.licenseKey),
  }),
};
