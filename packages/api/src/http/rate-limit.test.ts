import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { startTestApp } from "../testing/index.ts";
import { needTool, tools } from "../testing/tools/index.ts";
import { rateLimitKey } from "./rate-limit.ts";

describe("rate-limit keys", () => {
  it("counts an IPv4 client alike whether the listener reports it plainly or IPv4-mapped", () => {
    expect(rateLimitKey("203.0.113.9")).toBe("203.0.113.9");
    expect(rateLimitKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("puts the IPv6 addresses of one /56 under one key", () => {
    expect(rateLimitKey("2001:db8:0:1200::1")).toBe(rateLimitKey("2001:db8:0:12ff:ffff::2"));
    expect(rateLimitKey("2001:db8:0:1200::1")).not.toBe(rateLimitKey("2001:db8:0:1300::1"));
  });

  it("has a key for a request without an address", () => {
    expect(rateLimitKey(undefined)).toBe("unknown");
  });
});

describe("Retry-After on the rate limit's 429 (decision 0041)", () => {
  it("is the seconds left in the client's one-minute window, 1 to 60, as RateLimit-Reset says", async () => {
    const app = await startTestApp({ rateLimits: { client: 2 } });
    // The limiter counts on the service's clock, which the test moves.
    const start = app.clock.now().getTime();
    try {
      const client = await app.client();
      const ask = async (at: number) => {
        app.clock.set(new Date(start + at));
        const res = await client.get("/api/v1/client/public-key/SVC-NOPE");
        const header = (name: string) => res.headers.get(name);
        return { status: res.status, retryAfter: header("retry-after"), reset: header("ratelimit-reset") };
      };
      // The first request opens the window; the limit is used up at once.
      expect((await ask(0)).status).toBe(404);
      expect((await ask(0)).status).toBe(404);
      const refusals = [];
      for (const at of [0, 1_000, 45_000, 59_001]) refusals.push(await ask(at));
      expect(refusals).toEqual([
        { status: 429, retryAfter: "60", reset: "60" },
        { status: 429, retryAfter: "59", reset: "59" },
        { status: 429, retryAfter: "15", reset: "15" },
        { status: 429, retryAfter: "1", reset: "1" },
      ]);
      // Waiting as long as it said is enough: the next window has begun.
      expect(await ask(60_000)).toMatchObject({ status: 404, reset: "60" });
    } finally {
      await app.close();
    }
  });
});

// Needs a Redis server: .ci/run starts one and sets TEST_REDIS_URL.
const redisUrl = needTool(tools.redis, "the test of rate limits shared through Redis");

describe.skipIf(!redisUrl)("rate limits shared through Redis", () => {
  it("counts the requests of two instances together", async () => {
    const redis = new Redis(redisUrl!);
    const prefix = `rl-test-${randomBytes(4).toString("hex")}:`;
    const options = { redis, rateLimitPrefix: prefix, rateLimits: { panel: 6 } };
    const [a, b] = await Promise.all([startTestApp(options), startTestApp(options)]);
    try {
      const [ca, cb] = [await a.client(), await b.client()];
      for (let i = 0; i < 3; i++) {
        expect((await ca.get("/api/v1/panel/operator/users")).status).toBe(401);
        expect((await cb.get("/api/v1/panel/operator/users")).status).toBe(401);
      }
      const limited = await ca.get("/api/v1/panel/operator/users");
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBeTruthy();
    } finally {
      await Promise.all([a.close(), b.close()]);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });

  it("counts each call of a tRPC batch in the shared counter", async () => {
    const redis = new Redis(redisUrl!);
    const prefix = `rl-test-${randomBytes(4).toString("hex")}:`;
    const options = { redis, rateLimitPrefix: prefix, rateLimits: { panel: 10 } };
    const [a, b] = await Promise.all([startTestApp(options), startTestApp(options)]);
    try {
      const [ca, cb] = [await a.client(), await b.client()];
      const batch = (n: number) => `/trpc/${Array(n).fill("companies.list").join(",")}?batch=1`;
      const first = await ca.get(batch(6));
      expect(first.headers.get("ratelimit-remaining")).toBe("4");
      const second = await cb.get(batch(4));
      expect(second.status).toBe(401);
      expect(second.headers.get("ratelimit-remaining")).toBe("0");
      const refused = await ca.get(batch(1));
      expect(refused.status).toBe(429);
    } finally {
      await Promise.all([a.close(), b.close()]);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });
});
