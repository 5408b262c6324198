import { isDatabaseUnavailable } from "@licensing/core";
import type { Logger } from "pino";
import { EnvError } from "./env.ts";

const RETRY_MS = 1_000;
const WARN_EVERY_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for PostgreSQL to answer before the migrations run: an instance started while the database
 * restarts, or before it (compose, a reboot), comes up once it answers instead of dying. It retries each
 * second while the error is a lost database, for at most DATABASE_WAIT_SECONDS, with a warning at the
 * first failure and every 10 s; any other error (a wrong password, an unknown database) is not waited out.
 * Start-up runs on the host's time, not the service's clock: nothing else has started yet.
 */
export async function waitForDatabase(
  ping: () => Promise<void>,
  seconds: number,
  logger: Logger,
): Promise<void> {
  const started = Date.now();
  let warnedAt = -Infinity;
  for (;;) {
    try {
      await ping();
      if (warnedAt > -Infinity)
        logger.info({ waitedSeconds: Math.round((Date.now() - started) / 1000) }, "the database answers");
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const waited = Date.now() - started;
      if (waited >= seconds * 1000)
        throw new EnvError(
          `DATABASE_URL: the database did not answer within ${seconds} s (DATABASE_WAIT_SECONDS): ` +
            (error instanceof Error ? error.message : String(error)),
        );
      if (Date.now() - warnedAt >= WARN_EVERY_MS) {
        warnedAt = Date.now();
        logger.warn(
          { err: error, waitedSeconds: Math.round(waited / 1000), waitSeconds: seconds },
          "waiting for the database to answer before starting",
        );
      }
      await sleep(RETRY_MS);
    }
  }
}
