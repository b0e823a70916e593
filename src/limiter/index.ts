/** The one place that chooses where rate-limit counters live, from configuration. */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import { fromFlexible, RATE_LIMIT, type RateLimiter } from './rate-limiter.ts';

/** Creates the lead rate limiter: in process by default; Redis when `REDIS_URL` is set. */
export function createLimiter(config: Pick<Config, 'redisUrl'>): RateLimiter {
  if (config.redisUrl) {
    throw new Error('REDIS_URL is set, but shared Redis rate limits are not part of this release yet: unset REDIS_URL');
  }
  return fromFlexible(new RateLimiterMemory({ points: RATE_LIMIT.points, duration: RATE_LIMIT.windowSeconds }));
}
