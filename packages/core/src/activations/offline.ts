import { and, eq } from "drizzle-orm";
import { isUniqueViolation, tables, type LicenseRow } from "@licensing/db";
import {
  ActivateRequest,
  type OfflineActivationBody,
  type OfflineActivationResult,
  type OfflineDeactivationBody,
  type OfflineDeactivationResult,
} from "@licensing/contracts";
import {
  parseOfflineReceipt,
  parseOfflineRequest,
  type OfflineActivationRequest,
  type OfflineParseFailure,
} from "@licensing/protocol/offline";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import { DAY } from "../clock.ts";
import { unixSeconds } from "../crypto/license-token.ts";
import { offlineMacMatches, signOfflineResponse } from "../crypto/offline.ts";
import type { Deps } from "../deps.ts";
import { AppError, fail } from "../errors.ts";
import { loadLicense } from "../licenses/load.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { documentSigner } from "../templates/key-chain.ts";
import { activeSigningKey } from "../templates/signing-keys.ts";
import { activateLocked } from "./activate-locked.ts";
import type { MachineRequest } from "./activate.ts";
import { deactivateActivations } from "./deactivate-activations.ts";

const PARSE_FAILURES: Record<OfflineParseFailure, string> = {
  "not-armored": "holds no single -----BEGIN {label}----- … -----END {label}----- block",
  malformed: "is not the format's base64url segments (was it cut or changed?)",
  "invalid-payload": "does not hold the format's fields",
};
const unreadable = (what: string, label: string, reason: OfflineParseFailure) =>
  `The ${what} ${PARSE_FAILURES[reason].replaceAll("{label}", label)}`;

/**
 * POST /licenses/{id}/offline-activations (Admin; decision 0050): answers a request a machine without
 * network made. The request must name this license and carry the HMAC of its key; otherwise
 * `offline.request_invalid` and nothing is stored. The machine then activates under the same rules, in
 * the same code, as through the client API (`activateLocked`: live license, binding, device budget,
 * seats, heals and reuse of its live activation), marked `offline`. The answer is a certificate signed
 * with the template's active key, valid `validDays` from now (default: the license's expiry, never past it).
 * The same request again (same nonce) answers the same activation with a fresh certificate.
 */
export async function activateOffline(
  deps: Deps,
  actor: Actor,
  licenseId: string,
  input: OfflineActivationBody,
): Promise<OfflineActivationResult> {
  const { license } = await loadLicense(deps.db, actor, licenseId, "admin");
  const request = authenticRequest(license, input.request);
  const machine = machineOf(license, request);
  const now = deps.clock.now();
  const expiresAt = certificateExpiry(license, now, input.validDays);
  // Fetched first, so that a template without a usable key stores nothing.
  const key = await activeSigningKey(deps.db, license.templateId);

  let activationId = await replayedActivation(deps, actor, license, request);
  if (activationId === null) {
    try {
      const activated = await activateLocked(deps, machine, actor.request, {
        nonce: request.nonce,
        actor,
        expiresAt,
        requestedAt: new Date(request.iat * 1000),
      });
      activationId = activated!.activationId;
    } catch (error) {
      // The same request answered concurrently: this one is its replay.
      if (!isUniqueViolation(error, "offline_requests_license_id_nonce_pk")) throw error;
      activationId = await replayedActivation(deps, actor, license, request);
      if (activationId === null) throw error;
    }
  }
  const response = signOfflineResponse(
    {
      lid: license.id,
      aid: activationId,
      fp: request.fp,
      nonce: request.nonce,
      iat: unixSeconds(deps.clock.now()),
      exp: unixSeconds(expiresAt),
    },
    // A rotated key carries its certificate: the machine trusts only the root it was built with.
    await documentSigner(deps, deps.db, key),
  );
  return { activationId, response };
}

/** The request, parsed, when it names this license and its HMAC is this license key's. */
function authenticRequest(license: LicenseRow, text: string): OfflineActivationRequest {
  const parsed = parseOfflineRequest(text);
  if (!parsed.ok) {
    return fail(
      "offline.request_invalid",
      unreadable("request", "LICENSE ACTIVATION REQUEST", parsed.reason),
    );
  }
  if (parsed.request.lid !== license.id) {
    fail("offline.request_invalid", `The request is for license ${parsed.request.lid}, not this one`);
  }
  if (!offlineMacMatches(license.licenseKey, parsed.macInput, parsed.mac)) {
    fail(
      "offline.request_invalid",
      "The request's HMAC does not verify with this license's key: it was changed, or made with another key",
    );
  }
  return parsed.request;
}

/** What the request asks for, held to the rules of an online activation's body. */
function machineOf(license: LicenseRow, request: OfflineActivationRequest): MachineRequest {
  const body = ActivateRequest.safeParse({
    licenseKey: license.licenseKey,
    hwFingerprint: request.fp,
    machineName: request.machineName,
    components: request.components,
  });
  if (!body.success) {
    const issue = body.error.issues[0]!;
    return fail("offline.request_invalid", `The request's ${issue.path.join(".")}: ${issue.message}`);
  }
  const { hwFingerprint, machineName, components } = body.data;
  return {
    licenseKey: license.licenseKey,
    hwFingerprint: hwFingerprint!,
    machineName: machineName ?? null,
    components: components?.length ? components : null,
  };
}

/** now + validDays, or the license's expiry when absent or earlier. */
function certificateExpiry(license: LicenseRow, now: Date, validDays: number | undefined): Date {
  if (validDays === undefined) return license.expiresAt;
  const end = new Date(now.getTime() + validDays * DAY);
  return end < license.expiresAt ? end : license.expiresAt;
}

/**
 * The activation a request was answered with before, when it still holds that request's certificate:
 * the request is answered again (audited; no seat, no event). A request answered before whose activation
 * has ended, or has moved on to a newer request, is refused: it would take a seat back, or make the
 * newer certificate's receipt unusable.
 */
async function replayedActivation(
  deps: Deps,
  actor: Actor,
  license: LicenseRow,
  request: OfflineActivationRequest,
): Promise<string | null> {
  const o = tables.offlineRequests;
  const a = tables.activations;
  const [earlier] = await deps.db
    .select({ activationId: a.id, status: a.status, nonce: a.offlineNonce })
    .from(o)
    .innerJoin(a, eq(a.id, o.activationId))
    .where(and(eq(o.licenseId, license.id), eq(o.nonce, request.nonce)));
  if (!earlier) return null;
  if (earlier.status !== "active" || earlier.nonce !== request.nonce) {
    fail(
      "offline.request_invalid",
      "This request was answered before and that activation has ended or holds a newer request: make a new request on the machine",
    );
  }
  const status = effectiveStatus(license, deps.clock.now());
  if (status !== "Active") fail("license.not_active", `The license is ${status}`);
  await recordAudit(deps.db, deps.clock, actor, {
    action: "activation.offline_certificate",
    entityType: "activation",
    entityId: earlier.activationId,
    meta: { licenseId: license.id, nonce: request.nonce, replayed: true },
  });
  return earlier.activationId;
}

/**
 * POST /offline-deactivations (Admin; decision 0050): a receipt the machine wrote when it deleted its
 * certificate frees the seat. It must carry the HMAC of the license's key and name the nonce of the
 * certificate the activation holds; anything else, a license the caller cannot see included, is
 * `offline.receipt_invalid`. The same receipt again answers the same (the seat is freed once).
 */
export async function deactivateOffline(
  deps: Deps,
  actor: Actor,
  input: OfflineDeactivationBody,
): Promise<OfflineDeactivationResult> {
  const parsed = parseOfflineReceipt(input.receipt);
  if (!parsed.ok) {
    return fail("offline.receipt_invalid", unreadable("receipt", "LICENSE DEACTIVATION", parsed.reason));
  }
  const { receipt } = parsed;
  return deps.db.transaction(async (tx) => {
    const license = await loadLicense(tx, actor, receipt.lid, "admin", { forUpdate: true }).then(
      ({ license }) => license,
      (error: unknown) => {
        if (error instanceof AppError && error.code === "license.not_found") {
          return fail("offline.receipt_invalid", `No license ${receipt.lid} is visible to you`);
        }
        throw error;
      },
    );
    if (!offlineMacMatches(license.licenseKey, parsed.macInput, parsed.mac)) {
      fail(
        "offline.receipt_invalid",
        "The receipt's HMAC does not verify with the license's key: it was changed, or made with another key",
      );
    }
    const a = tables.activations;
    const [activation] = await tx
      .select({ id: a.id, mode: a.mode, nonce: a.offlineNonce })
      .from(a)
      .where(and(eq(a.id, receipt.aid), eq(a.licenseId, license.id)));
    if (!activation || activation.mode !== "offline" || activation.nonce !== receipt.nonce) {
      fail(
        "offline.receipt_invalid",
        "The receipt names no certificate this license's activation holds (another activation, or a certificate since replaced)",
      );
    }
    await deactivateActivations(
      tx,
      deps,
      license,
      { actorEmail: actor.email, reason: "offline.receipt", request: actor.request },
      receipt.aid,
    );
    return { licenseId: license.id, activationId: receipt.aid };
  });
}
