import { once } from "node:events";
import type { RecentWrites } from "@licensing/core";
import { Redis } from "ioredis";

/**
 * The Redis client of the rate limiters. A request never waits for Redis: while it is unreachable a
 * command fails at once (no offline queue, a short timeout), the limiter lets the request through and
 * warns once a minute, and ioredis reconnects in the background (docs/decisions/0018).
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  // Connection errors surface as failed commands, which the rate limiter reports (at most once a minute).
  redis.on("error", () => {});
  // Give a healthy Redis a moment to connect, but never hold the start-up for an absent one.
  const timeout = new Promise((resolve) => setTimeout(resolve, 2000).unref());
  await Promise.race([once(redis, "ready").catch(() => {}), timeout]);
  return redis;
}

/**
 * Read-your-writes shared by every instance (docs/decisions/0056): a key per writer that expires with the
 * window. Redis keeps the time here, not the service's clock.
 */
export function redisRecentWrites(redis: Redis, prefix = "licensing:wrote:"): RecentWrites {
  return {
    async note(principal, windowMs) {
      await redis.set(prefix + principal, "1", "PX", windowMs);
    },
    async has(principal) {
      return (await redis.exists(prefix + principal)) === 1;
    },
  };
}
