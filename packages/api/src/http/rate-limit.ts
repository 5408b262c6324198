import { isIPv6 } from "node:net";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Clock } from "@licensing/core";
import type { ErrorResponse } from "@licensing/contracts";
import { RateLimitStoreUnavailable, RedisWindowStore } from "./redis-store.ts";

export type Contour = "panel" | "auth" | "client";
export type RateLimits = Record<Contour, number>;

/**
 * The library's default masks IPv6 addresses to their /56 (one attacker, one subnet); this does the same
 * but skips its address parsing for IPv4, which is most of the traffic, including the IPv4-mapped form
 * (`::ffff:203.0.113.9`) that a dual-stack listener reports for IPv4 clients.
 */
export function rateLimitKey(ip: string | undefined): string {
  if (!ip) return "unknown";
  if (ip.startsWith("::ffff:") && ip.includes(".")) return ip.slice(7);
  return isIPv6(ip) ? ipKeyGenerator(ip) : ip;
}

export interface SharedCounters {
  redis: Redis;
  /** Key prefix (default `rl:`), so separate deployments can share one Redis. */
  prefix?: string | undefined;
  /** Called when Redis fails to count a request (which is then let through). */
  onUnavailable(error: unknown): void;
}

const WARNING_INTERVAL_MS = 60_000;

/**
 * The warning for rate limits that fail open: at most one line a minute however many requests pass
 * uncounted, with the number of failures since the last line. Its state belongs to one app.
 */
export function redisOutageWarning(clock: Clock, logger: Logger) {
  let lastAt = -Infinity;
  let failures = 0;
  return (error: unknown) => {
    failures++;
    const now = clock.now().getTime();
    if (now - lastAt < WARNING_INTERVAL_MS) return;
    lastAt = now;
    logger.warn(
      { err: error, failures },
      "Redis is unavailable: rate limits are not enforced (failing open) until it answers again",
    );
    failures = 0;
  };
}

/**
 * A fixed one-minute window per IP and contour (spec §1, §8). With Redis the counters are shared by
 * every instance, and a request Redis cannot count is let through (fail open, docs/decisions/0018);
 * otherwise each process counts alone.
 */
export function contourRateLimit(contour: Contour, limit: number, shared?: SharedCounters) {
  const store = shared
    ? new RedisWindowStore(shared.redis, `${shared.prefix ?? "rl:"}${contour}:`, shared.onUnavailable)
    : undefined;
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: "draft-6",
    keyGenerator: (req) => rateLimitKey(req.ip),
    // That check reads the key generator's source for `ipKeyGenerator`; rateLimitKey calls it.
    validate: { keyGeneratorIpFallback: false },
    legacyHeaders: false,
    ...(store ? { store } : {}),
    passOnStoreError: true,
    logger: {
      // The store has reported its own failure (throttled); other messages are the library's checks.
      error: (error: unknown, message?: string) => {
        if (!(error instanceof RateLimitStoreUnavailable)) console.error(message ?? "", error);
      },
      warn: (error: unknown, message?: string) => console.warn(message ?? "", error),
    },
    handler(_req, res) {
      const body: ErrorResponse = {
        code: "rate_limit.exceeded",
        message: `Too many requests: at most ${limit} per minute per IP on this API`,
        status: 429,
      };
      res.status(429).json(body);
    },
  });
}
