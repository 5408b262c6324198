import { createHash } from "node:crypto";
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type { Redis } from "ioredis";

// One fixed window per key: the first hit creates the counter with the window as its expiry (the same
// script rate-limit-redis runs, so counters of both stores agree).
const incrementScript = `
local ttl = redis.call("PTTL", KEYS[1])
if ttl <= 0 then
  redis.call("SET", KEYS[1], 1, "PX", ARGV[1])
  return { 1, tonumber(ARGV[1]) }
end
return { redis.call("INCR", KEYS[1]), ttl }`;
const incrementSha = createHash("sha1").update(incrementScript).digest("hex");

/** Thrown by the store when Redis did not answer; the limiter lets the request through (fail open). */
export class RateLimitStoreUnavailable extends Error {
  constructor(cause: unknown) {
    super("Redis did not answer the rate-limit counter", { cause });
    this.name = "RateLimitStoreUnavailable";
  }
}

/**
 * Rate-limit counters in Redis, shared by every instance (docs/architecture.md D8). Unlike rate-limit-redis it
 * holds no state that a Redis outage can break: the script is sent by hash and, when Redis answers
 * NOSCRIPT (after a restart), in full (docs/decisions/0018).
 */
export class RedisWindowStore implements Store {
  private windowMs = 60_000;

  constructor(
    private readonly redis: Redis,
    readonly prefix: string,
    private readonly onUnavailable: (error: unknown) => void,
  ) {}

  init(options: Options) {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const reply = await this.run(async () => {
      const args = [1, this.prefix + key, String(this.windowMs)] as const;
      try {
        return await this.redis.evalsha(incrementSha, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return await this.redis.eval(incrementScript, ...args);
      }
    });
    const [totalHits, ttl] = reply as [number, number];
    return { totalHits, resetTime: new Date(Date.now() + ttl) };
  }

  async decrement(key: string) {
    await this.run(() => this.redis.decr(this.prefix + key));
  }

  async resetKey(key: string) {
    await this.run(() => this.redis.del(this.prefix + key));
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      this.onUnavailable(error);
      throw new RateLimitStoreUnavailable(error);
    }
  }
}
