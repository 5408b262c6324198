/**
 * `@licensing/client/core`: the client library without Node built-ins, for browsers, Electron renderers and
 * other runtimes with WebCrypto and fetch. Bring a `LicenseStorage` and a fingerprint.
 */
export { LicenseClientCore, OfflineActivationError } from "./client/license-client-core.ts";
export type {
  ClientStatusDetails,
  LicenseClientCoreOptions,
  LicenseInfo,
  StatusListener,
} from "./client/options.ts";
export type { ClientLogger } from "./client/connection.ts";
export type { Seat, SeatListener } from "./client/seat.ts";
export { memoryStorage, type LicenseStorage, type MemoryStorage } from "./client/storage.ts";
export { realScheduler, MAX_TIMER_DELAY_MS, type Scheduler, type TimerKind } from "./client/scheduler.ts";
export {
  loadLocalLicense,
  statusInputs,
  type LocalLicense,
  type TrustedMarker,
} from "./client/local-license.ts";
export { inspectLicense, type LicenseInspection } from "./client/inspect.ts";
export {
  parseState,
  serializeState,
  type ClientState,
  type FingerprintVersion,
  type PendingOffline,
} from "./client/state.ts";
export { hashComponents, type ComponentValues } from "./client/components.ts";
export { valueAtPath } from "./client/config-path.ts";
export type { ConfigPath, ConfigValue, FeatureOf } from "./client/config-types.ts";
export {
  deriveStatus,
  isUsable,
  GRACE_PERIOD_MS,
  CLIENT_STATUSES,
  type LicenseProblem,
  type RefusalReason,
  type ClientStatus,
  type StatusDetails,
  type StatusInputs,
  type StatusReason,
} from "./status/derive-status.ts";
export { observe, observedFloor, type ObservedTime } from "./status/observed-time.ts";
export {
  toPublicKey,
  verifyLeaseToken,
  verifyLicenseToken,
  verifyMarker,
  verifyRevocation,
  verifyRevocationList,
  type PublicKeyInput,
  type TokenVerification,
  type VerificationKeys,
} from "./crypto/verify.ts";
export { addCertificate, trustedKeys, type TrustedKeys } from "./crypto/key-chain.ts";
export {
  checkLicenseFile,
  parseLicenseFile,
  type LicenseCheck,
  type LicenseFileContents,
  type VerifiedLicense,
} from "./license/license-file.ts";
export { checkMarker, type MarkerOwner, type MarkerProblem } from "./license/marker-check.ts";
export type { CertificateProblem, TrustedCertificate } from "./license/offline-certificate.ts";
// A product's key field reads a pasted key as the server does.
export { isLicenseKey, normalizeLicenseKey } from "@licensing/protocol";
export {
  LicensingApiError,
  ServerApi,
  type Activation,
  type ApiFailure,
  type ApiResult,
  type Lease,
  type LeaseHolder,
  type Machine,
  type ServerApiOptions,
} from "./http/server-api.ts";
export { CLIENT_ERROR_CODES, type ClientErrorCode } from "./http/error-codes.ts";
export { requestSigner } from "./http/signing.ts";
export type {
  FingerprintComponent,
  FingerprintMatchMode,
  HwBindingMode,
  MarkerPayload,
  ParsedToken,
  TokenClaims,
  TokenConfig,
  TokenHeader,
} from "./license/types.ts";
