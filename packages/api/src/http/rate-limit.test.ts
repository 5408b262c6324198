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
