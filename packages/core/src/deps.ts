import { lookup } from "node:dns/promises";
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
  webhooks: WebhookSettings;
}

/** Outgoing webhooks (spec §6, ARCHITECTURE.md §3). */
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
  webhooks?: Partial<WebhookSettings> | undefined;
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
      webhooks: { ...defaultWebhookSettings, ...options.webhooks },
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
