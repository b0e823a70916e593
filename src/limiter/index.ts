/** The one place that chooses where rate-limit counters live, from configuration: the leads' budget, and the office's sign-in attempts. */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Config } from '../config/config.ts';
import { createMemoryLimiter } from './memory-limiter.ts';
import { fromFlexible, type RateLimiter, type RateLimitPolicy } from './rate-limiter.ts';

/** What rate-limiter-flexible's store limiters have and its types leave out: how long a key's block in memory lasts (0: none). */
interface InMemoryBlocks {
  getInMemoryBlockMsBeforeExpire(rlKey: string): number;
}

/** A rate limiter and what it holds open. */
export interface LimiterHandle {
  limiter: RateLimiter;
  close(): Promise<void>;
}

/**
 * In process by default (`memory-limiter.ts`). With `REDIS_URL`, counters live in Redis and are shared by every
 * instance; while Redis cannot answer (no offline queue, 500 ms per command), an in-memory
 * insurance limiter takes over, so limits keep applying per instance and nothing waits or fails.
 */
export function createLimiter(config: Pick<Config, 'redisUrl'>, policy: RateLimitPolicy & { name: string }): LimiterHandle {
  if (!config.redisUrl) return { limiter: createMemoryLimiter(policy), close: async () => {} };
  const options = { points: policy.points, duration: policy.windowSeconds, keyPrefix: `lead-intake:${policy.name}` };
  const redis = new Redis(config.redisUrl, {
    enableOfflineQueue: false,
    commandTimeout: 500,
    maxRetriesPerRequest: 0,
    // Reconnect forever, at most every 2 s: Redis coming back restores shared limits without a restart.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  // Connection errors are expected during an outage; the insurance limiter answers meanwhile.
  redis.on('error', () => {});
  // A client's first refusal blocks it in this process's memory until its window ends (the time
  // Redis gives): from then on this instance refuses it without asking Redis, and the serving edge
  // reads the block (`refused`). Other instances block it at their own first refusal.
  const limiter = new RateLimiterRedis({
    ...options,
    storeClient: redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
    inMemoryBlockOnConsumed: policy.points + 1,
  });
  const blocks = limiter as unknown as InMemoryBlocks;
  const blockedMs = (clientKey: string) => blocks.getInMemoryBlockMsBeforeExpire(limiter.getKey(clientKey));
  return { limiter: fromFlexible(limiter, policy, blockedMs), close: async () => void redis.disconnect() };
}
