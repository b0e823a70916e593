/** Rate limits: a budget of so many points a window per client key (the leads' `RATE_LIMIT`, the office's limits), and the limiter's port. */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** The limiter's answer for one client: allowed or not, and what the RateLimit headers say. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the client's window resets (at least 1 while anything is counted). */
  resetSeconds: number;
}

/** Counts submissions per client key. */
export interface RateLimiter {
  /** Counts one submission and tells whether it is within the limit. */
  consume(clientKey: string): Promise<RateLimitState>;
  /** Tells the client's state without counting anything; `allowed` is true, as nothing was submitted. */
  peek(clientKey: string): Promise<RateLimitState>;
}

/** A budget: so many points in a fixed window of so many seconds. */
export interface RateLimitPolicy {
  points: number;
  windowSeconds: number;
}

function toState(res: RateLimiterRes | null, allowed: boolean, policy: RateLimitPolicy): RateLimitState {
  const used = res?.consumedPoints ?? 0;
  return {
    allowed,
    limit: policy.points,
    remaining: Math.max(0, policy.points - used),
    // Redis's time to live can round above the window itself: never say more than the window.
    resetSeconds: res ? Math.min(policy.windowSeconds, Math.max(1, Math.ceil(res.msBeforeNext / 1000))) : policy.windowSeconds,
  };
}

/** Adapts a rate-limiter-flexible limiter (memory or Redis) to the `RateLimiter` interface. */
export function fromFlexible(limiter: RateLimiterAbstract, policy: RateLimitPolicy): RateLimiter {
  const state = (res: RateLimiterRes | null, allowed: boolean) => toState(res, allowed, policy);
  return {
    async consume(clientKey) {
      try {
        return state(await limiter.consume(clientKey), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return state(rejection, false);
        throw rejection;
      }
    },
    async peek(clientKey) {
      return state(await limiter.get(clientKey), true);
    },
  };
}
