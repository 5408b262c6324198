import { lookup } from "node:dns/promises";
import type { Db } from "@licensing/db";
import type { Logger } from "pino";
import { createActivationState, type ActivationState } from "./activations/state.ts";
import { createLeaseState, type LeaseState } from "./leases/state.ts";
import type { Clock } from "./clock.ts";
import { createSigningKeyCache, type SigningKeyCache } from "./crypto/ed25519.ts";
import type { SignatureVersion } from "./crypto/request-signature.ts";
import { createClientSignatures, type ClientSignatures } from "./crypto/signature-notices.ts";
import { createPasswordHasher, type PasswordHashParams, type PasswordHasher } from "./crypto/password.ts";
import { createSecretBox, type SecretBox } from "./crypto/secret-box.ts";
import { createConfigValidators, type ConfigValidators } from "./licenses/config.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { createMetrics, type Metrics } from "./metrics/metrics.ts";
import { webhookQueueFigures } from "./webhooks/queue.ts";
import { createReadReplica, type ReadReplica, type RecentWrites } from "./replica.ts";

/** Settings the use-cases need; the server builds them from the environment. */
export interface CoreConfig {
  /** Links in mails are built on it, e.g. `${publicBaseUrl}/accept-invite?token=…`. */
  publicBaseUrl: string;
  licensing: LicensingSettings;
  webhooks: WebhookSettings;
  analytics: AnalyticsSettings;
  sessions: SessionSettings;
}

/** Panel sessions (decision 0036): sliding 7 days of inactivity (spec §5), within an absolute lifetime. */
export interface SessionSettings {
  /** SESSION_MAX_AGE_DAYS: a session ends this long after its sign-in, however much it is used. */
  maxAgeDays: number;
}

export const defaultSessionSettings: SessionSettings = { maxAgeDays: 30 };

/** Outgoing webhooks (spec §6, docs/behaviour.md). */
export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE: let endpoint URLs resolve to loopback, private, link-local or metadata addresses. */
  allowPrivate: boolean;
  /** Time a receiver has to answer, from the connection to the last byte (spec: 30 seconds). */
  timeoutMs: number;
  /** Resolves a host name to its addresses; the system resolver unless replaced (tests). */
  resolveHost: (hostname: string) => Promise<string[]>;
}

export const defaultWebhookSettings: WebhookSettings = {
  allowPrivate: false,
  timeoutMs: 30_000,
  resolveHost: async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address),
};

/** Heartbeat storage (decision 0027). */
export interface AnalyticsSettings {
  /** HEARTBEAT_RETENTION_DAYS: heartbeat records older than this are dropped with their month's partition. */
  heartbeatRetentionDays: number;
}

export const defaultAnalyticsSettings: AnalyticsSettings = { heartbeatRetentionDays: 400 };

/** Spec §8 limits that the environment may change (the README). */
export interface LicensingSettings {
  /** LICENSING_MAX_OFFLINE_DAYS: a license's offlineDays is clamped to 1..this. */
  maxOfflineDays: number;
  /** LICENSING_DEFAULT_TRIAL_DAYS: the length of a trial issued without expiresAt. */
  defaultTrialDays: number;
  /** LICENSING_HEARTBEAT_INTERVAL_SECONDS: told to clients; three silent intervals fire heartbeat_missed. */
  heartbeatIntervalSeconds: number;
}

export const defaultLicensingSettings: LicensingSettings = {
  maxOfflineDays: 30,
  defaultTrialDays: 14,
  heartbeatIntervalSeconds: 900,
};

/**
 * Everything a use-case may touch, passed explicitly as its first argument. Every piece of state (caches,
 * prepared statements, batching writers) lives here and nowhere at module level, so two `Deps` in one
 * process (tests, the simulator's virtual clock) share nothing.
 */
export interface Deps {
  db: Db;
  /** Writes whose loss in a crash is harmless (heartbeats); see `Database.telemetryDb`. */
  telemetryDb: Db;
  /**
   * Where the read-only queries of the operations declared `reads: "replica"` run: the primary (`db`),
   * except in the call of such an operation that the API layer routes to the read replica (decision 0056).
   * Nothing else reads it, and nothing writes through it.
   */
  reads: Db;
  /** The read replica (DATABASE_READ_URL) and its health; absent: everything on the primary. */
  replica: ReadReplica | undefined;
  clock: Clock;
  config: CoreConfig;
  secrets: SecretBox;
  mailer: Mailer;
  logger: Logger;
  passwords: PasswordHasher;
  /** Decrypted signing keys of `secrets`. */
  signingKeys: SigningKeyCache;
  configValidators: ConfigValidators;
  /** The client API's prepared statements, heartbeat writer and latency figures. */
  activations: ActivationState;
  /** The lease endpoints' renewal batcher and latency figures (decision 0048). */
  leases: LeaseState;
  /** CLIENT_SIGNATURE_MIN_VERSION and the per-license throttle of the "still v1 only" log line. */
  clientSignatures: ClientSignatures;
  /** This instance's Prometheus registry and what records into it (decision 0054). */
  metrics: Metrics;
}

/** Where a call came from; recorded in the audit log and on sessions. */
export interface RequestInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface DepsOptions {
  db: Db;
  /** Defaults to `db`. */
  telemetryDb?: Db | undefined;
  /** A streaming replica of `db` (DATABASE_READ_URL) for the operations declared `reads: "replica"`. */
  readDb?: Db | undefined;
  /** DATABASE_READ_MAX_LAG_SECONDS (default 5). */
  readMaxLagSeconds?: number | undefined;
  /** Who wrote lately (read-your-writes); defaults to this process's memory. */
  recentWrites?: RecentWrites | undefined;
  clock: Clock;
  logger: Logger;
  publicBaseUrl: string;
  masterKey: Buffer;
  smtpUrl?: string | undefined;
  licensing?: Partial<LicensingSettings> | undefined;
  webhooks?: Partial<WebhookSettings> | undefined;
  analytics?: Partial<AnalyticsSettings> | undefined;
  sessions?: Partial<SessionSettings> | undefined;
  /** Argon2 cost; defaults to the library's (OWASP baseline). */
  passwordHashing?: PasswordHashParams | undefined;
  /**
   * The password hasher; defaults to one with `passwordHashing`'s cost. Tests pass one whose Argon2
   * computations they count (decision 0044).
   */
  passwords?: PasswordHasher | undefined;
  /** CLIENT_SIGNATURE_MIN_VERSION (default v1). */
  clientSignatureMinVersion?: SignatureVersion | undefined;
}

export const DEFAULT_READ_MAX_LAG_SECONDS = 5;

/** Builds the dependencies from their parts; the server and the test harness both use it. */
export function createDeps(options: DepsOptions): Deps {
  const { db, clock, logger } = options;
  const publicBaseUrl = options.publicBaseUrl.replace(/\/$/, "");
  const telemetryDb = options.telemetryDb ?? db;
  const secrets = createSecretBox(options.masterKey);
  const metrics = createMetrics(clock);
  const deps: Deps = {
    db,
    telemetryDb,
    reads: db,
    replica:
      options.readDb &&
      createReadReplica({
        db: options.readDb,
        clock,
        logger,
        maxLagSeconds: options.readMaxLagSeconds ?? DEFAULT_READ_MAX_LAG_SECONDS,
        recentWrites: options.recentWrites,
      }),
    clock,
    logger,
    config: {
      publicBaseUrl,
      licensing: { ...defaultLicensingSettings, ...options.licensing },
      webhooks: { ...defaultWebhookSettings, ...options.webhooks },
      analytics: { ...defaultAnalyticsSettings, ...options.analytics },
      sessions: { ...defaultSessionSettings, ...options.sessions },
    },
    secrets,
    passwords: options.passwords ?? createPasswordHasher(options.passwordHashing),
    signingKeys: createSigningKeyCache(secrets),
    configValidators: createConfigValidators(),
    activations: createActivationState({ db, telemetryDb, clock, metrics }),
    leases: createLeaseState({ db, clock, metrics }),
    metrics,
    clientSignatures: createClientSignatures(clock, options.clientSignatureMinVersion),
    mailer: createMailer({
      db,
      clock,
      logger,
      smtpUrl: options.smtpUrl,
      from: `Licensing service <no-reply@${new URL(publicBaseUrl).hostname}>`,
    }),
  };
  metrics.sources.webhookQueue = () => webhookQueueFigures(deps);
  return deps;
}
