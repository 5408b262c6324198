import { eq } from "drizzle-orm";
import { tables, type Executor, type LicenseRow } from "@licensing/db";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { AppError, fail } from "../errors.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { refuseNotLive } from "../revocations/refusal.ts";

/**
 * The floating license a lease request names by its key, in the order a client is refused: unknown
 * (`license.not_found`, which `padUnknownKey` answers after the delay real work takes), not live
 * (`license.not_active`, or `license.revoked` under immediate revocation, as a heartbeat is refused; skipped for a release, which any status allows), not
 * floating (`lease.not_floating`). `forUpdate` locks the row, which every change of the count of live
 * leases holds (decision 0048).
 */
export async function loadFloatingLicense(
  deps: Deps,
  executor: Executor,
  licenseKeyText: string,
  options: { forUpdate?: boolean; anyStatus?: boolean } = {},
): Promise<LicenseRow> {
  const licenseKey = normalizeLicenseKey(licenseKeyText);
  const l = tables.licenses;
  const query = licenseKey ? executor.select().from(l).where(eq(l.licenseKey, licenseKey)) : null;
  const [license] = query ? await (options.forUpdate ? query.for("update") : query) : [];
  if (!license) return fail("license.not_found", "No license with this key");
  const status = effectiveStatus(license, deps.clock.now());
  if (!options.anyStatus && status !== "Active") await refuseNotLive(deps, executor, license);
  if (license.seatModel !== "floating") {
    fail("lease.not_floating", "The license is node-locked: its seats are its activations, not leases");
  }
  return license;
}

/**
 * Runs a lease call, answering an unknown license key only after as long as a successful call takes (and
 * outside any transaction, so the wait holds no connection): timing tells no key exists. A success feeds
 * the average.
 */
export async function padUnknownKey<T>(deps: Deps, call: () => Promise<T>): Promise<T> {
  const latency = deps.leases.latency;
  const startedAt = latency.now();
  try {
    const result = await call();
    latency.recordSuccess(startedAt);
    return result;
  } catch (error) {
    if (error instanceof AppError && error.code === "license.not_found") await latency.padFailure(startedAt);
    throw error;
  }
}
