import type { Db } from "@licensing/db";
import type { Logger } from "pino";
import type { Clock } from "./clock.ts";
import { createSecretBox, type SecretBox } from "./crypto/secret-box.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";

/** Settings the use-cases need; the server builds them from the environment. */
export interface CoreConfig {
  /** Links in mails are built on it, e.g. `${publicBaseUrl}/accept-invite?token=…`. */
  publicBaseUrl: string;
  licensing: LicensingSettings;
  analytics: AnalyticsSettings;
}

/** Heartbeat storage (decision 0027). */
export interface AnalyticsSettings {
  /** HEARTBEAT_RETENTION_DAYS: heartbeat records older than this are dropped with their month's partition. */
  heartbeatRetentionDays: number;
}

export const defaultAnalyticsSettings: AnalyticsSettings = { heartbeatRetentionDays: 400 };

/** Spec §8 limits that the environment may change (ARCHITECTURE.md §4). */
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

/** Everything a use-case may touch, passed explicitly as its first argument. */
export interface Deps {
  db: Db;
  /** Writes whose loss in a crash is harmless (heartbeats); see `Database.telemetryDb`. */
  telemetryDb: Db;
  clock: Clock;
  config: CoreConfig;
  secrets: SecretBox;
  mailer: Mailer;
  logger: Logger;
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
  clock: Clock;
  logger: Logger;
  publicBaseUrl: string;
  masterKey: Buffer;
  smtpUrl?: string | undefined;
  licensing?: Partial<LicensingSettings> | undefined;
  analytics?: Partial<AnalyticsSettings> | undefined;
}

/** Builds the dependencies from their parts; the server and the test harness both use it. */
export function createDeps(options: DepsOptions): Deps {
  const { db, clock, logger } = options;
  const publicBaseUrl = options.publicBaseUrl.replace(/\/$/, "");
  return {
    db,
    telemetryDb: options.telemetryDb ?? db,
    clock,
    logger,
    config: {
      publicBaseUrl,
      licensing: { ...defaultLicensingSettings, ...options.licensing },
      analytics: { ...defaultAnalyticsSettings, ...options.analytics },
    },
    secrets: createSecretBox(options.masterKey),
    mailer: createMailer({
      db,
      clock,
      logger,
      smtpUrl: options.smtpUrl,
      from: `Licensing service <no-reply@${new URL(publicBaseUrl).hostname}>`,
    }),
  };
}
