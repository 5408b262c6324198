import type { NextFunction, RequestHandler, Response } from "express";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { clientAddressKey, type Clock } from "@licensing/core";
import type { ErrorResponse } from "@licensing/contracts";
import { RedisWindows } from "./redis-store.ts";

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

/** What counting a request decided: the headers its answer carries, and the refusal if it is over. */
export interface RateVerdict {
  /** `RateLimit-*` (IETF draft 6), and `Retry-After` on a refusal: name, value. */
  headers: Array<[string, string]>;
  /** The 429 body, when the request is over the limit. */
  refusal?: ErrorResponse;
}

/**
 * A contour's limiter: `handler` counts a request once, `charge` counts it as `calls` (a tRPC batch);
 * `count` is the same count outside Express (the client API's direct routes). A verdict of `undefined`
 * means the request went uncounted (Redis failed; fail open).
 */
export interface ContourLimiter {
  handler: RequestHandler;
  charge(calls: number): RequestHandler;
  count(ip: string | undefined, calls?: number): RateVerdict | undefined | Promise<RateVerdict | undefined>;
}

/** A client's window after a count: its hits so far and when it ends (ms since the epoch). */
export interface WindowCount {
  hits: number;
  resetAt: number;
}

/** Where the windows are counted: in this process, or in Redis for every instance. */
export interface WindowCounter {
  add(key: string, hits: number, now: number): WindowCount | Promise<WindowCount>;
}

const WINDOW_MS = 60_000;

/** Fixed windows in this process, on the service's clock; windows that ended are dropped once a window. */
export class MemoryWindows implements WindowCounter {
  private readonly windows = new Map<string, WindowCount>();
  private nextSweep = 0;

  constructor(private readonly windowMs: number) {}

  add(key: string, hits: number, now: number): WindowCount {
    if (now >= this.nextSweep) {
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
      this.nextSweep = now + this.windowMs;
    }
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { hits: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.hits += hits;
    return { hits: window.hits, resetAt: window.resetAt };
  }
}

/**
 * A fixed one-minute window per IP and contour (spec §1, §8), counted on the service's clock. With Redis
 * the counters are shared by every instance, and a request Redis cannot count is let through (fail open,
 * docs/decisions/0018); otherwise each process counts alone. A request that stands for several calls
 * counts each (decision 0036), so a batch cannot carry more calls past the limit than separate requests
 * could. Every counted answer carries the IETF draft-6 headers; a refusal also `Retry-After`, the seconds
 * left in the window (decision 0041). Synchronous when counted in memory (decision 0060).
 */
export function contourRateLimit(
  contour: Contour,
  limit: number,
  clock: Clock,
  shared?: SharedCounters,
): ContourLimiter {
  const counter: WindowCounter = shared
    ? new RedisWindows(shared.redis, `${shared.prefix ?? "rl:"}${contour}:`, WINDOW_MS, shared.onUnavailable)
    : new MemoryWindows(WINDOW_MS);
  const policy = `${limit};w=${WINDOW_MS / 1000}`;
  const limitText = String(limit);
  const refusal: ErrorResponse = {
    code: "rate_limit.exceeded",
    message: `Too many requests: at most ${limit} per minute per IP on this API`,
    status: 429,
  };

  const verdict = (count: WindowCount, now: number): RateVerdict => {
    const reset = String(Math.max(0, Math.ceil((count.resetAt - now) / 1000)));
    const headers: Array<[string, string]> = [
      ["RateLimit-Policy", policy],
      ["RateLimit-Limit", limitText],
      ["RateLimit-Remaining", String(Math.max(limit - count.hits, 0))],
      ["RateLimit-Reset", reset],
    ];
    if (count.hits <= limit) return { headers };
    headers.push(["Retry-After", reset]);
    return { headers, refusal };
  };

  const count = (ip: string | undefined, calls = 1) => {
    const now = clock.now().getTime();
    const counted = counter.add(rateLimitKey(ip), Math.max(calls, 1), now);
    // The store has reported its own failure (throttled); the request goes on uncounted.
    if (counted instanceof Promise)
      return counted.then(
        (c) => verdict(c, now),
        () => undefined,
      );
    return verdict(counted, now);
  };

  const apply = (res: Response, next: NextFunction, decided: RateVerdict | undefined) => {
    if (!decided || res.headersSent) return next();
    for (const [name, value] of decided.headers) res.setHeader(name, value);
    if (!decided.refusal) return next();
    res.status(429).json(decided.refusal);
  };

  const charge =
    (calls: number): RequestHandler =>
    (req, res, next) => {
      const decided = count(req.ip, calls);
      if (decided instanceof Promise) void decided.then((d) => apply(res, next, d));
      else apply(res, next, decided);
    };
  return { handler: charge(1), charge, count };
}
