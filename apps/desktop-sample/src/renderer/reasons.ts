import type { StatusReason } from "../shared/bridge.ts";

/**
 * Every status reason in the user's words, shown beside the SDK's code. Keyed by the SDK's `StatusReason`:
 * a reason added to the SDK fails the typecheck until it has a label here.
 */
export const REASON_LABELS: Record<StatusReason, string> = {
  "not-initialized": "Starting",
  "license-file-missing": "No license file",
  "license-file-unreadable": "The license file cannot be read",
  "signature-invalid": "The license file is not for this product",
  "token-expired": "The license has expired",
  "marker-valid": "Checked in with the licensing server",
  "marker-expired": "Offline for too long: grace period",
  "grace-ended": "Offline for too long",
  "no-marker": "Not activated on this computer",
  "seat-limit": "Every seat is in use",
  "device-budget": "Too many new computers",
  "license-not-active": "The license is not active",
  "device-changed": "Bound to another computer",
  reactivated: "Activated again",
  "offline-activated": "Activated without internet",
  "offline-expired": "The activation without internet has ended",
  revoked: "The license was revoked (a signed revocation from the vendor)",
  "lease-held": "Using one of the license's shared seats",
  "lease-borrowed": "A shared seat borrowed for offline work",
  "lease-expired": "The shared seat ran out (no contact with the licensing server)",
  "no-lease": "Waiting for a shared seat",
  "no-seat": "No free seat: every shared seat is in use",
};
