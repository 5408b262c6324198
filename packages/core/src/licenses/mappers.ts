import type { LicenseRow } from "@licensing/db";
import type { LicenseResponse, LicenseStatus } from "@licensing/contracts";
import { isPastExpiry } from "./live.ts";

/**
 * The status a caller sees: an Active license past its expiresAt is Expired even before the expiry
 * sweeper has written it, so no answer ever calls an expired license Active.
 */
export const effectiveStatus = (
  license: Pick<LicenseRow, "status" | "expiresAt">,
  now: Date,
): LicenseStatus => (isPastExpiry(license, now) ? "Expired" : license.status);

export const toLicenseResponse = (l: LicenseRow, now: Date): LicenseResponse => ({
  id: l.id,
  licenseKey: l.licenseKey,
  companyId: l.companyId,
  templateId: l.templateId,
  status: effectiveStatus(l, now),
  config: l.config,
  offlineDays: l.offlineDays,
  currentVersion: l.currentVersion,
  expiresAt: l.expiresAt.toISOString(),
  issuedAt: l.issuedAt.toISOString(),
  activatedAt: l.activatedAt?.toISOString() ?? null,
  lastHeartbeatAt: l.lastHeartbeatAt?.toISOString() ?? null,
  revokedAt: l.revokedAt?.toISOString() ?? null,
  revocationReason: l.revocationReason,
  isTrial: l.isTrial,
  hwBinding: l.hwBinding,
  hwFingerprint: l.hwFingerprint,
});
