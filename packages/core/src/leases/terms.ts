import type { LicenseRow } from "@licensing/db";

/**
 * When a lease taken or renewed now expires: `leaseSeconds` ahead, and never past the license's own
 * expiry: an expiring license's leases end with it, with no job to end them.
 */
export function leaseExpiry(license: Pick<LicenseRow, "leaseSeconds" | "expiresAt">, now: Date): Date {
  const end = new Date(now.getTime() + license.leaseSeconds * 1000);
  return end < license.expiresAt ? end : license.expiresAt;
}

/**
 * When the client should renew, counted from now: after a third of the time the lease has left, so two
 * thirds remain for retries (a failed renew retries with backoff until expiresAt) before the seat is lost.
 * A 900-second lease renews every 300 seconds; a borrowed one, a third of the way to its end.
 */
export function renewAfterSeconds(expiresAt: Date, now: Date): number {
  return Math.max(1, Math.floor((expiresAt.getTime() - now.getTime()) / 3000));
}
