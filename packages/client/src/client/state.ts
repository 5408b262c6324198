import { parseJsonObject } from "@licensing/protocol";
import type { ObservedTime } from "../status/observed-time.ts";

/**
 * The library's state beside the cached marker (`<license file>.state.json`): which activation this
 * machine holds, and the latest time observed (the rollback defence). Unreadable state counts as none.
 */
export interface ClientState {
  licenseId: string | null;
  activationId: string | null;
  observed: ObservedTime | null;
  /**
   * Which default fingerprint this install uses. Absent from the state of an install made before
   * version 2 existed, which therefore keeps version 1 (so it is not a new machine).
   */
  fingerprintVersion?: FingerprintVersion | null;
  /**
   * The offline activation request this machine waits for an answer to (decision 0050): its nonce, which
   * the answer must carry, and its text (shown again, or as a QR code). Kept until an offline
   * deactivation or a newer request.
   */
  pendingOffline?: PendingOffline | null;
  /**
   * The certificates of rotated keys learned from the server's answers (decision 0049), so that a marker
   * signed by one of them still verifies after a restart, and a key's retirement stays known.
   */
  certificates?: string[];
  /**
   * When the license was revoked (epoch ms), from a verified revocation or revocation list: the status stays
   * `Revoked` across restarts. Written only for `licenseId`.
   */
  revokedAt?: number | null;
  /**
   * The token of the lease this machine borrowed (a floating license, decision 0052), so that it works
   * offline after a restart until the borrow ends; verified again on start.
   */
  borrowedLease?: string | null;
}

export interface PendingOffline {
  nonce: string;
  request: string;
}

/** Which default fingerprint: 1 includes the OS major version, 2 (new installs) only the OS family. */
export type FingerprintVersion = 1 | 2;

const STATE_VERSION = 1;

export const serializeState = (state: ClientState) =>
  `${JSON.stringify({
    version: STATE_VERSION,
    licenseId: state.licenseId,
    activationId: state.activationId,
    observedAt: state.observed?.at ?? null,
    observedClockAt: state.observed?.clockAt ?? null,
    ...(state.fingerprintVersion ? { fingerprintVersion: state.fingerprintVersion } : {}),
    ...(state.pendingOffline ? { pendingOffline: state.pendingOffline } : {}),
    ...(state.certificates?.length ? { certificates: state.certificates } : {}),
    ...(state.revokedAt ? { revokedAt: state.revokedAt } : {}),
    ...(state.borrowedLease ? { borrowedLease: state.borrowedLease } : {}),
  })}\n`;

function pendingOf(v: unknown): PendingOffline | null {
  const p = v as Partial<PendingOffline> | null;
  return typeof p?.nonce === "string" && typeof p.request === "string" && p.request.length <= 4096
    ? { nonce: p.nonce, request: p.request }
    : null;
}

const stringOrNull = (v: unknown) => (typeof v === "string" && v.length <= 200 ? v : null);
const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export function parseState(text: string | null): ClientState | null {
  const r = text ? parseJsonObject(text) : null;
  if (!r || r.version !== STATE_VERSION) return null;
  return {
    licenseId: stringOrNull(r.licenseId),
    activationId: stringOrNull(r.activationId),
    observed:
      finite(r.observedAt) && finite(r.observedClockAt)
        ? { at: r.observedAt, clockAt: r.observedClockAt }
        : null,
    fingerprintVersion:
      r.fingerprintVersion === 1 || r.fingerprintVersion === 2 ? r.fingerprintVersion : null,
    pendingOffline: pendingOf(r.pendingOffline),
    certificates: Array.isArray(r.certificates)
      ? r.certificates.filter((c): c is string => typeof c === "string" && c.length <= 4096).slice(0, 16)
      : [],
    revokedAt: finite(r.revokedAt) ? r.revokedAt : null,
    borrowedLease:
      typeof r.borrowedLease === "string" && r.borrowedLease.length <= 4096 ? r.borrowedLease : null,
  };
}
