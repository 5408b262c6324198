import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { WindowCount, WindowCounter } from "./rate-limit.ts";

// One fixed window per key: the first hits create the counter with the window as its expiry; later hits
// add to it. The reply is the count and the milliseconds left in the window.
const incrementScript = `
local ttl = redis.call("PTTL", KEYS[1])
if ttl <= 0 then
  redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[1])
  return { tonumber(ARGV[2]), tonumber(ARGV[1]) }
end
return { redis.call("INCRBY", KEYS[1], ARGV[2]), ttl }`;
const incrementSha = createHash("sha1").update(incrementScript).digest("hex");

/**
 * Rate-limit counters in Redis, shared by every instance (docs/architecture.md D8). It holds no state that
 * a Redis outage can break: the script is sent by hash and, when Redis answers NOSCRIPT (after a restart),
 * in full (docs/decisions/0018). A failed count is reported and rejected; the limiter lets the request
 * through (fail open). The window runs on Redis's clock; its end is given on the service's.
 */
export class RedisWindows implements WindowCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowMs: number,
    private readonly onUnavailable: (error: unknown) => void,
  ) {}

  async add(key: string, hits: number, now: number): Promise<WindowCount> {
    const args = [1, this.prefix + key, String(this.windowMs), String(hits)] as const;
    try {
      const reply = await this.redis.evalsha(incrementSha, ...args).catch((error: unknown) => {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return this.redis.eval(incrementScript, ...args);
      });
      const [count, ttl] = reply as [number, number];
      return { hits: count, resetAt: now + ttl };
    } catch (error) {
      this.onUnavailable(error);
      throw error;
    }
  }
}
