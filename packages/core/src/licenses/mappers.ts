import type { Executor, LicenseRow } from "@licensing/db";
import type { DeviceBudget, LicenseResponse, LicenseStatus } from "@licensing/contracts";
import { deviceBudgets } from "../activations/device-budget.ts";
import { isPastExpiry } from "./live.ts";

/**
 * The status a caller sees: an Active license past its expiresAt is Expired even before the expiry
 * sweeper has written it, so no answer ever calls an expired license Active.
 */
export const effectiveStatus = (
  license: Pick<LicenseRow, "status" | "expiresAt">,
  now: Date,
): LicenseStatus => (isPastExpiry(license, now) ? "Expired" : license.status);

export const toLicenseResponse = (l: LicenseRow, now: Date, deviceBudget: DeviceBudget): LicenseResponse => ({
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
  fingerprintMatch: l.fingerprintMatch,
  revocation: l.revocation,
  deviceBudget,
  seatModel: l.seatModel,
  leaseSeconds: l.leaseSeconds,
  maxBorrowDays: l.maxBorrowDays,
});

/** Licenses as the panel shows them, their device budgets read in one query. */
export async function toLicenseResponses(
  executor: Executor,
  rows: LicenseRow[],
  now: Date,
): Promise<LicenseResponse[]> {
  const budgets = await deviceBudgets(executor, rows, now);
  return rows.map((row) => toLicenseResponse(row, now, budgets.get(row.id)!));
}

export async function licenseResponse(executor: Executor, row: LicenseRow, now: Date) {
  const [response] = await toLicenseResponses(executor, [row], now);
  return response!;
}
