import { trustedKeys } from "../crypto/key-chain.ts";
import type { PublicKeyInput } from "../crypto/verify.ts";
import { deriveStatus, type StatusDetails } from "../status/derive-status.ts";
import { loadLocalLicense, statusInputs, type LocalLicense } from "./local-license.ts";
import type { FingerprintVersion } from "./state.ts";
import type { LicenseStorage } from "./storage.ts";

/** What a support tool shows: the files as checked, and the status they give. */
export interface LicenseInspection extends LocalLicense {
  details: StatusDetails;
}

/**
 * Reads a machine's license, cached marker and state, and explains the status they give at `now`
 * (default: the clock), without the network and without writing anything.
 */
export async function inspectLicense(options: {
  storage: LicenseStorage;
  publicKey: PublicKeyInput | readonly PublicKeyInput[];
  /**
   * The fingerprint of the machine the files came from (markers are checked against it); a function gets
   * the fingerprint version the files' state says that install uses.
   */
  hwFingerprint: string | ((fingerprintVersion: FingerprintVersion) => Promise<string>);
  now?: number;
}): Promise<LicenseInspection> {
  const now = options.now ?? Date.now();
  const { hwFingerprint } = options;
  const local = await loadLocalLicense(
    options.storage,
    trustedKeys(options.publicKey),
    async (version) => (typeof hwFingerprint === "string" ? hwFingerprint : hwFingerprint(version)),
    now,
  );
  const details = deriveStatus(
    statusInputs(local.license, local.marker, local.observed.at, local.certificate, local.revokedAt),
    now,
  );
  return { ...local, details };
}
