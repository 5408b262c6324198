import { inspectLicense, type LicenseInspection } from "../client/inspect.ts";
import type { PublicKeyInput } from "../crypto/verify.ts";
import { defaultFingerprint } from "./fingerprint.ts";
import { cachePaths, fileStorage } from "./file-storage.ts";
import { installIdFile } from "./license-client.ts";

/**
 * Explains the status a license file and its cache give on this machine (or, with `hwFingerprint`, on the
 * machine they were copied from), without the network and without writing anything: for support tools.
 */
export async function inspectLicenseFile(options: {
  licenseFilePath: string;
  publicKey: PublicKeyInput | readonly PublicKeyInput[];
  hwFingerprint?: string;
  now?: number;
}): Promise<LicenseInspection & { paths: ReturnType<typeof cachePaths> }> {
  const storage = fileStorage(options.licenseFilePath);
  const inspection = await inspectLicense({
    storage: { ...storage, writeMarker: async () => {}, writeState: async () => {} },
    publicKey: options.publicKey,
    hwFingerprint:
      options.hwFingerprint ??
      ((fingerprintVersion) =>
        defaultFingerprint({ installIdFile: installIdFile(options.licenseFilePath), fingerprintVersion })),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { ...inspection, paths: cachePaths(options.licenseFilePath) };
}
