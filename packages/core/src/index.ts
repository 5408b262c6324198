export { AppError, fail } from "./errors.ts";
// The API answers a lost database with 503 (its errors.ts) and may not import @licensing/db itself.
export { isDatabaseUnavailable } from "@licensing/db";
export { createManualClock, systemClock, DAY, HOUR, MINUTE, type Clock, type ManualClock } from "./clock.ts";
export {
  createDeps,
  type WebhookSettings,
  type CoreConfig,
  type SessionSettings,
  type Deps,
  type DepsOptions,
  type RequestInfo,
  DEFAULT_READ_MAX_LAG_SECONDS,
} from "./deps.ts";
export {
  createReadReplica,
  LAG_CHECK_INTERVAL_MS,
  REPLICA_RETRY_AFTER_MS,
  REPLICA_WARNING_INTERVAL_MS,
  memoryRecentWrites,
  type ReadReplica,
  type RecentWrites,
} from "./replica.ts";
export {
  createSecretBox,
  SealedValueError,
  SEALED_VERSION,
  type SealedAt,
  type SecretBox,
} from "./crypto/secret-box.ts";
export { sealedAt } from "./crypto/sealed-columns.ts";
export {
  rotateMasterKey,
  sealedUnderAnotherKey,
  upgradeSealedValues,
  type RotationResult,
} from "./crypto/rotate-master-key.ts";
export { checkMasterKey, type MasterKeyCheck } from "./crypto/master-key-check.ts";
export {
  createMetrics,
  type Metrics,
  type MetricSources,
  type PoolFigures,
  type WebhookQueueFigures,
} from "./metrics/metrics.ts";
export {
  verifyRequestSignature,
  signRequest,
  signatureV1,
  signatureV2,
  type SignatureVersion,
} from "./crypto/request-signature.ts";
export { V1_NOTICE_INTERVAL_MS, type ClientSignatures } from "./crypto/signature-notices.ts";
export {
  argon2,
  createPasswordHasher,
  hashPassword,
  type Argon2,
  type PasswordHasher,
} from "./crypto/password.ts";
export { createMailer, REMOVED_SECRET, type Mail, type Mailer } from "./mail/mailer.ts";
export { purgeMailOutbox, MAIL_OUTBOX_RETENTION_MS } from "./mail/outbox-retention.ts";
export { recordAudit } from "./audit/record.ts";
export { purgeIdempotencyKeys } from "./idempotency/idempotency.ts";
export type { Actor, TokenActor, UserActor } from "./auth/actor.ts";
export { resolveApiToken, API_TOKEN_PREFIX } from "./auth/api-token-actor.ts";
export { resolveSession, closeSession, SESSION_TTL_MS } from "./auth/sessions.ts";
export { clientAddressKey } from "./auth/client-address.ts";
export { bootstrapOperator } from "./operators/bootstrap.ts";
export {
  signLicenseToken,
  verifyLicenseToken,
  unixSeconds,
  type TokenSigner,
  type TokenVerification,
} from "./crypto/license-token.ts";
export { signMarker, verifyMarker, type MarkerVerification } from "./crypto/marker.ts";
export { signLeaseToken, verifyLeaseToken, type LeaseTokenVerification } from "./crypto/lease-token.ts";
export {
  signCertificate,
  signRevocation,
  signRevocationList,
  verifyCertificate,
  verifiesWith,
  type DocumentSigner,
} from "./crypto/signed-documents.ts";
export {
  generateLicenseKey,
  normalizeLicenseKey,
  isLicenseKey,
  LICENSE_KEY_PATTERN,
} from "./crypto/license-key.ts";
export { publicKeyFromHex } from "./crypto/ed25519.ts";
export {
  offlineMacMatches,
  signOfflineResponse,
  verifyOfflineResponse,
  type OfflineResponseVerification,
} from "./crypto/offline.ts";

export * as auth from "./auth/index.ts";
export * as operators from "./operators/index.ts";
export * as companies from "./companies/index.ts";
export * as users from "./users/index.ts";
export * as apiTokens from "./api-tokens/index.ts";
export * as audit from "./audit/index.ts";
export * as policy from "./policy/index.ts";
export * as templates from "./templates/index.ts";
export * as licenses from "./licenses/index.ts";
export * as activations from "./activations/index.ts";
export * as leases from "./leases/index.ts";
export * as sweepers from "./sweepers/index.ts";
export * as webhooks from "./webhooks/index.ts";
export * as analytics from "./analytics/index.ts";
export * as revocations from "./revocations/index.ts";
export { findUnstorable, type UnstorableText } from "./validation/storable-text.ts";
