/**
 * `@licensing/client`: the client library for Node and Electron's main process. Everything of
 * `@licensing/client/core`, plus the file cache, the default fingerprint and `LicenseClient`.
 */
export * from "./core.ts";
export { LicenseClient, installIdFile, type LicenseClientOptions } from "./node/license-client.ts";
export { cachePaths, fileStorage, writeFileAtomic } from "./node/file-storage.ts";
export {
  collectFingerprintSources,
  defaultComponents,
  defaultFingerprint,
  fingerprintComponents,
  fingerprintOf,
  fingerprintSources,
  isStableMac,
  memorySizeBucket,
  type FingerprintProbe,
  type FingerprintSources,
} from "./node/fingerprint.ts";
export { inspectLicenseFile } from "./node/inspect-file.ts";
