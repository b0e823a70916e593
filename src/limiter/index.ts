/** The one place that chooses where rate-limit counters live, from configuration. */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import { RATE_LIMIT } from '../facts.ts';
import { createMemoryLimiter } from './memory-limiter.ts';
import { fromFlexible, type RateLimiter } from './rate-limiter.ts';

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
export function createLimiter(config: Pick<Config, 'redisUrl'>): LimiterHandle {
  if (!config.redisUrl) return { limiter: createMemoryLimiter(RATE_LIMIT), close: async () => {} };
  const options = { points: RATE_LIMIT.points, duration: RATE_LIMIT.windowSeconds, keyPrefix: 'lead-intake:leads' };
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
  return { limiter: fromFlexible(limiter), close: async () => void redis.disconnect() };
}
