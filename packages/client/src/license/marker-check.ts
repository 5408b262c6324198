import { verifyMarker, type VerificationKeys } from "../crypto/verify.ts";
import type { MarkerPayload } from "./types.ts";

/** Why a marker (cached or received) was not trusted. */
export type MarkerProblem =
  /** Not shaped like a marker. */
  | "malformed"
  /** Changed, or signed by another key (or by a retired key after its retirement). */
  | "signature-invalid"
  /** Another license's marker. */
  | "other-license"
  /** Another activation's marker (the cache and the state beside it disagree). */
  | "other-activation"
  /** Issued to another machine's fingerprint: a copied cache. */
  | "other-machine";

export interface MarkerOwner {
  licenseId: string;
  /** This machine's activation, when known; unknown (no state kept) accepts the marker's own. */
  activationId: string | null;
  fingerprint: string;
}

/** Verifies a marker and checks it belongs to this license, activation and machine. */
export async function checkMarker(
  text: string,
  keys: VerificationKeys,
  owner: MarkerOwner,
): Promise<{ ok: true; payload: MarkerPayload } | { ok: false; problem: MarkerProblem }> {
  const verified = await verifyMarker(text, keys);
  if (!verified.ok) return { ok: false, problem: verified.reason };
  const { payload } = verified;
  if (payload.lid !== owner.licenseId) return { ok: false, problem: "other-license" };
  if (payload.fp !== owner.fingerprint) return { ok: false, problem: "other-machine" };
  if (owner.activationId !== null && payload.aid !== owner.activationId) {
    return { ok: false, problem: "other-activation" };
  }
  return { ok: true, payload };
}
