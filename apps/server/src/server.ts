import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { answerClientErrors, createApp, createLogger } from "@licensing/api";
import {
  bootstrapOperator,
  checkMasterKey,
  createDeps,
  SealedValueError,
  sealedUnderAnotherKey,
  systemClock,
  upgradeSealedValues,
  webhooks,
  type Clock,
  type Deps,
  type WebhookSettings,
} from "@licensing/core";
import { createDatabase, type Database } from "@licensing/db";
import { pino, type Logger } from "pino";
import { EnvError, type Env } from "./env.ts";
import { loadMasterKey } from "./master-key.ts";
import { serverJobs, WEBHOOK_DELIVERY_JOB, type ServerJobId } from "./jobs.ts";
import { connectRedis, redisRecentWrites } from "./redis.ts";
import { waitForDatabase } from "./wait-for-database.ts";
import { startWorkers, type Workers } from "./workers.ts";

export interface RunningServer {
  url: string;
  deps: Deps;
  /** The background jobs; `wake(id)` runs one now. */
  workers: Workers<ServerJobId>;
  /**
   * Stops accepting, lets in-flight requests finish, then closes the pool and Redis. With `drainMs`, first
   * answers /readyz with 503 for that long while still serving every request, so that a load balancer
   * takes the instance out of rotation before its listener closes.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** An open database to use instead of the one the environment names (tests). */
  database?: Database;
  /** An open read replica to use instead of DATABASE_READ_URL's (tests). */
  readDatabase?: Database;
  validateResponses?: boolean;
  /** How often the expiry and silence sweepers run (default SWEEP_INTERVAL_SECONDS). */
  sweepIntervalMs?: number;
  /** The admin app's build served at `/` (default `apps/admin/dist`; nothing is served when unbuilt). */
  adminDir?: string;
  /** Webhook settings the environment does not carry (tests: a short timeout, a resolver). */
  webhooks?: Partial<WebhookSettings>;
}

const DEFAULT_ADMIN_DIR = fileURLToPath(new URL("../../admin/dist", import.meta.url));

const PURGE_INTERVAL_MS = 3_600_000;

/** The release this build is (CHANGELOG.md's newest; version.test.ts keeps them equal). */
export const VERSION = "0.6.0";

export async function startServer(env: Env, options: StartOptions = {}): Promise<RunningServer> {
  // Buffered, asynchronous writes: a synchronous write(2) per log line costs the hot path dearly.
  const destination = options.logger
    ? undefined
    : pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL, destination });
  const clock = options.clock ?? systemClock;
  // A key generated under DATA_DIR belongs to one machine: another instance on the same PostgreSQL would
  // generate its own (decision 0053). Only the embedded database, or an explicit choice, uses one.
  if (env.DATABASE_URL && !env.LICENSING_MASTER_KEY && !env.LICENSING_ALLOW_GENERATED_MASTER_KEY)
    throw new EnvError(
      "LICENSING_MASTER_KEY: required when DATABASE_URL is set; every instance on one database needs the same key. " +
        "Set it to 32 random bytes in base64 (openssl rand -base64 32), or set " +
        "LICENSING_ALLOW_GENERATED_MASTER_KEY=true to use a development key generated under DATA_DIR",
    );
  const database =
    options.database ??
    createDatabase({
      url: env.DATABASE_URL,
      dataDir: env.DATABASE_URL ? undefined : join(env.DATA_DIR, "pglite"),
    });
  if (env.DATABASE_URL && !options.database)
    await waitForDatabase(() => database.ping(), env.DATABASE_WAIT_SECONDS, logger).catch(
      async (error: unknown) => {
        await database.close();
        throw error;
      },
    );
  await database.migrate();
  const readDatabase =
    options.readDatabase ??
    (env.DATABASE_READ_URL ? createDatabase({ url: env.DATABASE_READ_URL, replica: true }) : undefined);

  const master = loadMasterKey(env.LICENSING_MASTER_KEY, env.DATA_DIR);
  if (master.generated)
    logger.warn(
      { dataDir: env.DATA_DIR },
      "LICENSING_MASTER_KEY is unset: generated a development key under DATA_DIR",
    );
  const publicBaseUrl = env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`;
  const redis = env.REDIS_URL ? await connectRedis(env.REDIS_URL) : undefined;
  const deps = createDeps({
    db: database.db,
    telemetryDb: database.telemetryDb,
    readDb: readDatabase?.db,
    readMaxLagSeconds: env.DATABASE_READ_MAX_LAG_SECONDS,
    recentWrites: redis && redisRecentWrites(redis),
    clock,
    logger,
    publicBaseUrl,
    masterKey: master.key,
    smtpUrl: env.SMTP_URL,
    clientSignatureMinVersion: env.CLIENT_SIGNATURE_MIN_VERSION,
    licensing: {
      maxOfflineDays: env.LICENSING_MAX_OFFLINE_DAYS,
      defaultTrialDays: env.LICENSING_DEFAULT_TRIAL_DAYS,
      heartbeatIntervalSeconds: env.LICENSING_HEARTBEAT_INTERVAL_SECONDS,
    },
    webhooks: { ...options.webhooks, allowPrivate: env.WEBHOOK_ALLOW_PRIVATE },
    analytics: { heartbeatRetentionDays: env.HEARTBEAT_RETENTION_DAYS },
    sessions: { maxAgeDays: env.SESSION_MAX_AGE_DAYS },
  });
  const refused = await sealedUnderAnotherKey(database.db, deps.secrets);
  if (refused.length > 0) {
    if (!options.database) await database.close();
    if (!options.readDatabase) await readDatabase?.close();
    redis?.disconnect();
    throw new EnvError(
      `LICENSING_MASTER_KEY: this key does not open the ${refused.join(", ")} stored in the database; ` +
        `start with the key they were sealed under (npm run rotate-master-key moves them to a new one)`,
    );
  }
  const keyCheck = await checkMasterKey(database.db, deps.secrets, clock.now());
  if (keyCheck === "mismatch") {
    if (!options.database) await database.close();
    if (!options.readDatabase) await readDatabase?.close();
    redis?.disconnect();
    throw new EnvError(
      "LICENSING_MASTER_KEY: this key does not open the key check value stored in the database by the " +
        "first instance started on it; every instance on one database needs the same key" +
        (master.generated || !env.LICENSING_MASTER_KEY
          ? ` (LICENSING_MASTER_KEY is unset, so this instance used the development key in ${join(env.DATA_DIR, "master.key")})`
          : "") +
        ". Start with the key of the other instances (npm run rotate-master-key moves a database to a new one)",
    );
  }
  if (keyCheck === "written") logger.info("stored the master key check value in the database");
  try {
    const upgraded = await upgradeSealedValues(database.db, deps.secrets);
    if (Object.values(upgraded).some((n) => n > 0))
      logger.info(
        { resealed: upgraded },
        "re-sealed the stored secrets in the v2 format, bound to their rows",
      );
  } catch (error) {
    if (!(error instanceof SealedValueError)) throw error;
    if (!options.database) await database.close();
    if (!options.readDatabase) await readDatabase?.close();
    redis?.disconnect();
    throw new EnvError(
      `${error.message}. Nothing was re-sealed: start with the master key they were sealed under`,
    );
  }
  await ensureOperator(deps, env);

  // Process metrics (memory, CPU, event loop, GC) and the pools' use, read at each scrape of /metrics.
  deps.metrics.collectProcessMetrics();
  deps.metrics.sources.pools = () => [...database.pools(), ...(readDatabase?.pools() ?? [])];
  let shuttingDown = false;
  const app = createApp({
    deps,
    ping: () => database.ping(),
    shuttingDown: () => shuttingDown,
    redis,
    trustProxy: env.TRUST_PROXY,
    version: VERSION,
    validateResponses: options.validateResponses ?? false,
    adminDir: options.adminDir ?? DEFAULT_ADMIN_DIR,
    metricsToken: env.METRICS_TOKEN,
    rateLimits: { panel: env.RATE_LIMIT_PANEL, auth: env.RATE_LIMIT_AUTH, client: env.RATE_LIMIT_CLIENT },
  });
  const jobs = serverJobs({
    sweepIntervalMs: options.sweepIntervalMs ?? env.SWEEP_INTERVAL_SECONDS * 1000,
    purgeIntervalMs: PURGE_INTERVAL_MS,
    webhookPollIntervalMs: env.WEBHOOK_POLL_INTERVAL_SECONDS * 1000,
    analyticsIntervalMs: env.ANALYTICS_INTERVAL_SECONDS * 1000,
  });
  const workers = startWorkers(deps, jobs);
  // Commits that create or replay deliveries, in this instance or another, wake the dispatcher at once.
  const unlisten = await database.listen(webhooks.WAKE_CHANNEL, () => workers.wake(WEBHOOK_DELIVERY_JOB));
  const server = createServer(app);
  // Longer than a load balancer keeps an idle upstream connection (60 s for nginx and AWS ALB), so the
  // balancer, not the instance, closes it: otherwise a request sent as the instance closes it is reset.
  server.keepAliveTimeout = env.HTTP_KEEP_ALIVE_SECONDS * 1000;
  server.headersTimeout = Math.max(server.headersTimeout, server.keepAliveTimeout + 1000);
  answerClientErrors(server, logger);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, resolve);
  });
  const { port } = server.address() as AddressInfo;
  logger.info(
    {
      port,
      database: database.kind,
      readReplica: Boolean(readDatabase),
      publicBaseUrl: deps.config.publicBaseUrl,
    },
    "licensing service listening",
  );
  logger.flush();

  return {
    url: `http://127.0.0.1:${port}`,
    deps,
    workers,
    async close({ drainMs = 0 } = {}) {
      shuttingDown = true;
      // A real wait, not the service's clock: the load balancer polling /readyz lives in real time.
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      await closeHttp(server);
      await unlisten();
      await workers.stop();
      await deps.mailer.idle();
      redis?.disconnect();
      if (!options.database) await database.close();
      if (!options.readDatabase) await readDatabase?.close();
      destination?.flushSync();
    },
  };
}

async function ensureOperator(deps: Deps, env: Env) {
  const generated = !env.BOOTSTRAP_OPERATOR_EMAIL;
  const account = {
    email: env.BOOTSTRAP_OPERATOR_EMAIL ?? "operator@example.com",
    password: env.BOOTSTRAP_OPERATOR_PASSWORD ?? randomBytes(12).toString("base64url"),
  };
  const created = await bootstrapOperator(deps, account);
  if (!created) return;
  if (generated) {
    // The one place a password is logged, on purpose (README): marked so a log scan can tell.
    deps.logger.warn(
      { email: account.email, generatedPassword: account.password, containsSecret: "generated password" },
      "empty database: created an operator with a generated password (set BOOTSTRAP_OPERATOR_EMAIL/PASSWORD to choose)",
    );
  } else {
    deps.logger.info({ email: account.email }, "empty database: created the bootstrap operator");
  }
}

function closeHttp(server: Server, graceMs = 10_000) {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs).unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
