import type { LicenseClient } from "@licensing/client";
import {
  GATED_FEATURE,
  PROJECT_LIMIT_PATH,
  type FingerprintView,
  type LicenseView,
  type OfflineView,
} from "../shared/bridge.ts";

/**
 * What the renderer is shown of the client's state: everything but the license key (and the token, and
 * the activation ids: other machines are named by `seatId`; the offline receipt, text for the user to
 * carry to the vendor, names this machine's inside its signed body). Features and limits are the
 * license's; whether they are usable follows the status.
 */
export function licenseView(input: {
  client: LicenseClient | null;
  /** The pending request (with its QR code) and the kept receipt, which the session holds. */
  offline: Pick<OfflineView, "request" | "receipt">;
  fingerprint: FingerprintView | null;
  serverUrl: string;
  qa: LicenseView["qa"];
  now: number;
  /** The name the renderer knows a machine's activation by (`seatIds`). */
  seatId: (activationId: string) => string;
}): LicenseView {
  const { client } = input;
  const details = client?.statusDetails ?? null;
  const license = client?.license ?? null;
  const maxProjects = client?.getConfig<unknown>(PROJECT_LIMIT_PATH) ?? null;
  const usable = client?.isUsable ?? false;
  const limits = license?.config.limits;
  return {
    phase: client ? "ready" : "first-run",
    serverUrl: input.serverUrl,
    status: details?.status ?? "Invalid",
    reason: details?.reason ?? "license-file-missing",
    message: details?.message ?? "No license is installed yet",
    usable,
    at: details?.at ?? input.now,
    nextTransitionAt: details?.nextTransitionAt ?? null,
    nextStatus: details?.nextStatus ?? null,
    license: license && {
      licenseId: license.licenseId,
      productCode: license.productCode,
      version: license.version,
      issuedAt: license.issuedAt,
      expiresAt: license.expiresAt,
      trial: license.trial,
      hwBinding: license.hwBinding.mode,
      features: [...license.config.features],
      limits: limits && typeof limits === "object" ? { ...(limits as Record<string, unknown>) } : {},
    },
    marker:
      details?.markerIssuedAt != null && details.markerExpiresAt != null && details.graceEndsAt != null
        ? {
            issuedAt: details.markerIssuedAt,
            expiresAt: details.markerExpiresAt,
            graceEndsAt: details.graceEndsAt,
          }
        : null,
    fingerprint: client ? input.fingerprint : null,
    connection: {
      activated: details?.activationId != null,
      heartbeating: details?.heartbeating ?? false,
      lastContactAt: details?.lastContactAt ?? null,
      nextHeartbeatAt: details?.nextHeartbeatAt ?? null,
      lastError: details?.lastError
        ? {
            code: details.lastError.code,
            message: details.lastError.message,
            status: details.lastError.status ?? null,
          }
        : null,
      markerProblem: details?.markerProblem ?? null,
    },
    machines:
      details?.machines?.map((machine) => ({
        seatId: input.seatId(machine.activationId),
        name: machine.machineName,
        activatedAt: machine.activatedAt,
        lastHeartbeatAt: machine.lastHeartbeatAt,
      })) ?? null,
    retryAt: details?.retryAt ?? null,
    holders:
      details?.holders?.map((holder) => ({
        name: holder.machineName,
        since: holder.acquiredAt,
        until: holder.expiresAt,
      })) ?? null,
    gating: {
      exportUnlocked: usable && client!.hasFeature(GATED_FEATURE),
      maxProjects: usable && typeof maxProjects === "number" ? maxProjects : null,
    },
    offline: {
      request: input.offline.request,
      certificateExpiresAt: details?.certificateExpiresAt ?? null,
      receipt: input.offline.receipt,
    },
    qa: input.qa,
  };
}
