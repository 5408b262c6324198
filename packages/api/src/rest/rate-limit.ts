import { isIPv6 } from "node:net";
import { ipKeyGenerator, rateLimit, type Store } from "express-rate-limit";
import type { Redis } from "ioredis";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import type { ErrorResponse } from "@licensing/contracts";

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

/**
 * A fixed one-minute window per IP and contour (spec §1, §8). With Redis the counters are shared by
 * every instance; otherwise each process counts alone.
 */
export function contourRateLimit(contour: Contour, limit: number, redis?: Redis, prefix = "rl:") {
  const store: Store | undefined = redis
    ? new RedisStore({
        prefix: `${prefix}${contour}:`,
        sendCommand: (command: string, ...args: string[]) =>
          redis.call(command, ...args) as Promise<RedisReply>,
      })
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
