/** The one place that chooses where rate-limit counters live, from configuration: the leads' budget, and the office's sign-in attempts. */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Config } from '../config/config.ts';
import { createMemoryLimiter } from './memory-limiter.ts';
import { fromFlexible, type RateLimiter, type RateLimitPolicy } from './rate-limiter.ts';

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
  const limiter = new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) });
  return { limiter: fromFlexible(limiter, policy), close: async () => void redis.disconnect() };
}
