import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createServer } from "node:http";
import {
  bootstrapOperator,
  createDeps,
  createManualClock,
  type Deps,
  type DepsOptions,
  type ManualClock,
  type WebhookSettings,
} from "@licensing/core";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { createApp } from "../app.ts";
import { answerClientErrors } from "../http/client-error.ts";
import { createLogger } from "../http/log-redaction.ts";
import type { RateLimits } from "../http/rate-limit.ts";
import { TestClient } from "./http-client.ts";
import { startSmtpReceiver, type SmtpReceiver } from "./smtp-receiver.ts";

export { TestClient } from "./http-client.ts";
export { startSmtpReceiver, type SmtpReceiver } from "./smtp-receiver.ts";
export { trpcCaller } from "./trpc-caller.ts";
export { trpcError } from "./trpc-client.ts";
export type { ApiResponse } from "./http-client.ts";
export { newNonce, offlineReceipt, offlineRequest, type OfflineMachine } from "./offline.ts";
export type { BodyOf, RequestOf, ResultOf } from "./api-client.ts";
export {
  createLicensedCompany,
  issueLicense,
  signatureHeaders,
  signedPost,
  type IssuedLicense,
} from "./client-api.ts";

export const OPERATOR = { email: "root@example.com", password: "operator-password-1" };

export interface TestApp {
  url: string;
  clock: ManualClock;
  deps: Deps;
  database: TestDatabase;
  smtp: SmtpReceiver;
  /** A new client; pass `signIn` to log in as the bootstrap operator. */
  client(options?: { signIn?: boolean }): Promise<TestClient>;
  close(): Promise<void>;
}

/**
 * The real app on an ephemeral port, over an isolated database (PGlite, or TEST_DATABASE_URL), with a
 * manual clock, a real SMTP receiver and a bootstrap operator. Responses are validated against their schemas.
 */
export interface TestAppOptions {
  rateLimits?: Partial<RateLimits>;
  publicBaseUrl?: string;
  trustProxy?: boolean | number;
  redis?: Redis;
  rateLimitPrefix?: string;
  /** Where logs go; silent by default (TEST_LOG_LEVEL=debug shows them). */
  logger?: Logger;
  /** Serve the admin app's build from this folder at `/`. */
  adminDir?: string;
  webhooks?: Partial<WebhookSettings>;
  /** CLIENT_SIGNATURE_MIN_VERSION (default v1). */
  clientSignatureMinVersion?: "v1" | "v2";
  /** false: no SMTP_URL, mails go to the log and the outbox table only (the receiver still runs). */
  smtp?: boolean;
  /** Heartbeat storage settings (e.g. a short HEARTBEAT_RETENTION_DAYS). */
  analytics?: DepsOptions["analytics"];
  /** Session settings (SESSION_MAX_AGE_DAYS). */
  sessions?: DepsOptions["sessions"];
  /** Another app's database, to run a second app over the same data (left open on close). */
  database?: TestDatabase;
  /** The master key sealing signing keys; apps sharing a database need the same one. */
  masterKey?: Buffer;
  /** The password hasher, e.g. one whose Argon2 computations the test counts (decision 0044). */
  passwords?: DepsOptions["passwords"];
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const smtp = await startSmtpReceiver();
  const clock = createManualClock(new Date());
  const logger = options.logger ?? createLogger({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deps = createDeps({
    db: database.db,
    telemetryDb: database.telemetryDb,
    clock,
    logger,
    publicBaseUrl: options.publicBaseUrl ?? url,
    masterKey: options.masterKey ?? randomBytes(32),
    smtpUrl: options.smtp === false ? undefined : smtp.url,
    clientSignatureMinVersion: options.clientSignatureMinVersion,
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    analytics: options.analytics,
    sessions: options.sessions,
    passwords: options.passwords,
  });
  await bootstrapOperator(deps, OPERATOR);
  const app = createApp({
    deps,
    ping: () => database.ping(),
    version: "test",
    validateResponses: true,
    trustProxy: options.trustProxy,
    redis: options.redis,
    rateLimitPrefix: options.rateLimitPrefix,
    adminDir: options.adminDir,
    rateLimits: { panel: 100_000, auth: 100_000, client: 100_000, ...options.rateLimits },
  });
  server.on("request", app);
  answerClientErrors(server, logger);

  return {
    url,
    clock,
    deps,
    database,
    smtp,
    async client({ signIn = false } = {}) {
      const client = new TestClient(url);
      if (signIn) await client.login(OPERATOR.email, OPERATOR.password);
      return client;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deps.mailer.idle();
      await smtp.close();
      if (!options.database) await database.dispose();
    },
  };
}
