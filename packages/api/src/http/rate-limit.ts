import type { NextFunction, Request, RequestHandler, Response } from "express";
import { MemoryStore, rateLimit, type Store } from "express-rate-limit";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { clientAddressKey, type Clock } from "@licensing/core";
import type { ErrorResponse } from "@licensing/contracts";
import { RateLimitStoreUnavailable, RedisWindowStore } from "./redis-store.ts";

export type Contour = "panel" | "auth" | "client";
export type RateLimits = Record<Contour, number>;

/** The key a client is counted under: its IPv4 address, or its IPv6 /56 (core's `clientAddressKey`). */
export const rateLimitKey = (ip: string | undefined): string => clientAddressKey(ip);

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

/** A contour's limiter: `handler` counts a request once, `charge` counts it as `calls` (a tRPC batch). */
export interface ContourLimiter {
  handler: RequestHandler;
  charge(calls: number): RequestHandler;
}

/**
 * A fixed one-minute window per IP and contour (spec §1, §8). With Redis the counters are shared by
 * every instance, and a request Redis cannot count is let through (fail open, docs/decisions/0018);
 * otherwise each process counts alone. A request that stands for several calls counts each
 * (decision 0036), so a batch cannot carry more calls past the limit than separate requests could.
 */
export function contourRateLimit(contour: Contour, limit: number, shared?: SharedCounters): ContourLimiter {
  const store: Store = shared
    ? new RedisWindowStore(shared.redis, `${shared.prefix ?? "rl:"}${contour}:`, shared.onUnavailable)
    : new MemoryStore();
  const handler = rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: "draft-6",
    keyGenerator: (req) => rateLimitKey(req.ip),
    // That check reads the key generator's source for `ipKeyGenerator`; rateLimitKey does what it does.
    validate: { keyGeneratorIpFallback: false },
    legacyHeaders: false,
    store,
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
  // The library counts one hit per request and has no cost option (express-rate-limit#309, whose
  // maintainers suggest incrementing more than once): the calls beyond the first are added to the same
  // store here, then the library counts the last one, decides against the limit and sets the headers.
  const charge =
    (calls: number): RequestHandler =>
    (req: Request, res: Response, next: NextFunction) => {
      if (calls <= 1) return handler(req, res, next);
      const key = rateLimitKey(req.ip);
      // A store that fails here fails again in the handler, which lets the request through (fail open).
      const extra = Array.from({ length: calls - 1 }, () =>
        Promise.resolve()
          .then(() => store.increment(key))
          .catch(() => undefined),
      );
      Promise.all(extra).then(() => handler(req, res, next), next);
    };
  return { handler, charge };
}
