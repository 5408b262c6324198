import type { Clock } from "../clock.ts";
import type { SignatureVersion } from "./request-signature.ts";

/** At most one "still v1 only" line per license per minute. */
export const V1_NOTICE_INTERVAL_MS = 60_000;
// Beyond this many licenses the oldest entries are dropped (a line may then repeat within the minute).
const MAX_TRACKED = 10_000;

/** Replay settings and what the client API remembers between requests; held by `Deps`. */
export interface ClientSignatures {
  minVersion: SignatureVersion;
  /**
   * True when a request from this license, signed with v1 alone, should be logged now: the first time,
   * then once a minute. Tells an operator which clients keep CLIENT_SIGNATURE_MIN_VERSION at v1.
   */
  shouldReportV1(licenseKey: string): boolean;
}

export function createClientSignatures(clock: Clock, minVersion: SignatureVersion = "v1"): ClientSignatures {
  const lastReported = new Map<string, number>();
  return {
    minVersion,
    shouldReportV1(licenseKey) {
      const now = clock.now().getTime();
      const last = lastReported.get(licenseKey);
      if (last !== undefined && now - last < V1_NOTICE_INTERVAL_MS) return false;
      lastReported.delete(licenseKey);
      if (lastReported.size >= MAX_TRACKED) lastReported.delete(lastReported.keys().next().value!);
      lastReported.set(licenseKey, now);
      return true;
    },
  };
}
