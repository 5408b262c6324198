/**
 * The client library's status (spec §3 "Client library status"): the six rules, nothing else, as one pure
 * function of what was verified and of the time. The client, the QA simulator and support tools share it.
 */

/** The status the client library derives locally; the server's license status is another thing. */
export const CLIENT_STATUSES = ["Invalid", "Active", "GracePeriod", "Expired", "Revoked"] as const;
/**
 * `Revoked` is derived only for a license with `immediate` revocation, from a verified revocation (the
 * server's signed refusal, or a revocation list: decision 0049); otherwise a revocation is learned only
 * indirectly (rule 5), as markers stop and the offline window runs out.
 */
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** How long a license stays usable after its offline marker expired (spec §8). */
export const GRACE_PERIOD_MS = 24 * 60 * 60 * 1000;

/** Why there is no verified license token (rule 6, and before `initialize`). */
export type LicenseProblem =
  "not-initialized" | "license-file-missing" | "license-file-unreadable" | "signature-invalid";

/**
 * What the server said when it refused this machine (the client sets these, `deriveStatus` never does):
 * every seat in use, too many new devices in the license's window, a license not Active (revoked,
 * suspended, expired), a license bound to another machine (or released and awaiting a rebind).
 */
export type RefusalReason =
  | "seat-limit"
  | "device-budget"
  | "license-not-active"
  | "device-changed"
  /** A floating license whose seats are all leased (decision 0052): `holders` and `retryAt` say more. */
  | "no-seat";

export type StatusReason =
  | LicenseProblem
  | RefusalReason
  /** The server had ended this machine's activation (reset, deactivated) and it activated again. */
  | "reactivated"
  /** Rule 1: past the token's hard expiry, online or not. */
  | "token-expired"
  /** Rules 2 and 4: a verified marker of this machine has not expired yet. */
  | "marker-valid"
  /** Rule 3: the marker expired less than 24 hours ago. */
  | "marker-expired"
  /** Rules 3 and 5: the marker expired and so did its grace period. */
  | "grace-ended"
  /** No valid marker and none received: the offline window is empty. */
  | "no-marker"
  /** Activated offline (decision 0050): the panel's certificate has not expired yet. */
  | "offline-activated"
  /** The offline certificate's end has passed (no grace period: the date was agreed in advance). */
  | "offline-expired"
  /** A verified revocation of this license (immediate revocation, decision 0049). */
  | "revoked"
  /** A floating license (decision 0052): a verified lease of this machine has not ended yet. */
  | "lease-held"
  /** The same, borrowed for offline work. */
  | "lease-borrowed"
  /** A floating license whose lease ended without a renewal (no grace period: borrowing is for offline). */
  | "lease-expired"
  /** A floating license without a lease, and no answer that says why (yet). */
  | "no-lease";

export interface StatusInputs {
  /** The verified token's hard expiry (epoch ms), or why there is no verified token. */
  license: { expiresAt: number } | { problem: LicenseProblem };
  /** A verified marker of this license, activation and machine (epoch ms), or null. */
  marker: { issuedAt: number; expiresAt: number } | null;
  /** A verified offline certificate of this license and machine (epoch ms); it takes the marker's place. */
  certificate?: { expiresAt: number } | null;
  /**
   * The earliest time it can be (epoch ms): the latest time observed, carried forward as the clock moves.
   * A clock behind it (set back, or slow) is read as this time, so turning the clock back gains nothing.
   */
  observedAt?: number | null;
  /** When the license was revoked (epoch ms), from a verified revocation; absent or null when it was not. */
  revokedAt?: number | null;
  /**
   * Set for a floating license (decision 0052): its lease, verified (epoch ms), or null when it holds
   * none. A lease replaces the marker: the status is Active while it lasts, then Expired, with no grace.
   */
  lease?: { expiresAt: number; borrowed: boolean } | null;
}

export interface StatusDetails {
  status: ClientStatus;
  reason: StatusReason;
  /** One sentence for logs and support. */
  message: string;
  /** The time the status holds for (epoch ms): the clock's reading, raised to `observedAt`. */
  at: number;
  /** What the clock said. */
  clockAt: number;
  /** How far the clock is behind the observed time (ms); 0 unless it was set back or runs slow. */
  clockBehindBy: number;
  /** When the status changes next if nothing else happens (epoch ms); null when it will not by itself. */
  nextTransitionAt: number | null;
  /** The status it changes to at `nextTransitionAt`. */
  nextStatus: ClientStatus | null;
  tokenExpiresAt: number | null;
  markerIssuedAt: number | null;
  markerExpiresAt: number | null;
  /** The marker's expiry plus 24 hours. */
  graceEndsAt: number | null;
  /** The offline certificate's end, when the machine was activated offline. */
  certificateExpiresAt: number | null;
  /** A floating license's lease end (renewed or borrowed), when it holds one. */
  leaseExpiresAt: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

const PROBLEM_MESSAGES: Record<LicenseProblem, string> = {
  "not-initialized": "initialize() has not completed yet",
  "license-file-missing": "The license file does not exist",
  "license-file-unreadable": "The license file cannot be read as a license (an envelope or a token)",
  "signature-invalid": "The license token's signature does not verify with the configured public key",
};

/**
 * The status at `now` (epoch ms of the client's clock). Boundaries: a marker is valid while
 * `at < expiresAt`, the grace period runs while `at < expiresAt + 24 h`, and the token expires at its `exp`.
 */
export function deriveStatus(inputs: StatusInputs, now: number): StatusDetails {
  const at = Math.max(now, inputs.observedAt ?? now);
  const { marker } = inputs;
  const base = {
    at,
    clockAt: now,
    clockBehindBy: at - now,
    tokenExpiresAt: "expiresAt" in inputs.license ? inputs.license.expiresAt : null,
    markerIssuedAt: marker?.issuedAt ?? null,
    markerExpiresAt: marker?.expiresAt ?? null,
    graceEndsAt: marker ? marker.expiresAt + GRACE_PERIOD_MS : null,
    certificateExpiresAt: inputs.certificate?.expiresAt ?? null,
    leaseExpiresAt: inputs.lease?.expiresAt ?? null,
  };
  const settled = (status: ClientStatus, reason: StatusReason, message: string): StatusDetails => ({
    status,
    reason,
    message,
    nextTransitionAt: null,
    nextStatus: null,
    ...base,
  });

  if ("problem" in inputs.license) {
    const { problem } = inputs.license;
    return settled("Invalid", problem, PROBLEM_MESSAGES[problem]);
  }
  if (inputs.revokedAt != null) {
    return settled("Revoked", "revoked", `The license was revoked at ${iso(inputs.revokedAt)}`);
  }
  const tokenExpiresAt = inputs.license.expiresAt;
  // Rule 1.
  if (at >= tokenExpiresAt) {
    return settled("Expired", "token-expired", `The license expired at ${iso(tokenExpiresAt)}`);
  }
  const { certificate } = inputs;
  if (certificate) {
    if (at >= certificate.expiresAt) {
      return settled(
        "Expired",
        "offline-expired",
        `The offline activation ended at ${iso(certificate.expiresAt)}`,
      );
    }
    const end = Math.min(certificate.expiresAt, tokenExpiresAt);
    return {
      status: "Active",
      reason: "offline-activated",
      message: `Activated offline until ${iso(end)}`,
      nextTransitionAt: end,
      nextStatus: "Expired",
      ...base,
    };
  }
  const { lease } = inputs;
  if (lease !== undefined) {
    if (lease && at < lease.expiresAt) {
      const end = Math.min(lease.expiresAt, tokenExpiresAt);
      return {
        status: "Active",
        reason: lease.borrowed ? "lease-borrowed" : "lease-held",
        message: `${lease.borrowed ? "Borrowed" : "Leased"} seat until ${iso(end)}`,
        nextTransitionAt: end,
        nextStatus: "Expired",
        ...base,
      };
    }
    return lease
      ? settled("Expired", "lease-expired", `The seat's lease ended at ${iso(lease.expiresAt)}`)
      : settled("Expired", "no-lease", "No seat leased yet");
  }
  if (!marker) {
    return settled(
      "Expired",
      "no-marker",
      "No valid offline marker and no answer from the server yet: the offline window is empty",
    );
  }
  const graceEndsAt = marker.expiresAt + GRACE_PERIOD_MS;
  // Whatever comes first: the marker's own end, or the token's hard expiry.
  const until = (end: number, next: ClientStatus) =>
    tokenExpiresAt <= end
      ? { nextTransitionAt: tokenExpiresAt, nextStatus: "Expired" as const }
      : { nextTransitionAt: end, nextStatus: next };
  // Rules 2 and 4.
  if (at < marker.expiresAt) {
    return {
      status: "Active",
      reason: "marker-valid",
      message: `Valid offline until ${iso(marker.expiresAt)}`,
      ...until(marker.expiresAt, "GracePeriod"),
      ...base,
    };
  }
  // Rule 3.
  if (at < graceEndsAt) {
    return {
      status: "GracePeriod",
      reason: "marker-expired",
      message: `The offline marker expired at ${iso(marker.expiresAt)}; the grace period ends at ${iso(graceEndsAt)}`,
      ...until(graceEndsAt, "Expired"),
      ...base,
    };
  }
  return settled(
    "Expired",
    "grace-ended",
    `The offline marker expired at ${iso(marker.expiresAt)} and its grace period ended at ${iso(graceEndsAt)}`,
  );
}

/** Active or GracePeriod: the states in which a product keeps working. */
export const isUsable = (status: ClientStatus) => status === "Active" || status === "GracePeriod";
