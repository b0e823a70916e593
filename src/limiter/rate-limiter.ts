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
  /**
   * The state of a client this limiter has refused in its current window, read in memory without
   * counting anything (the serving edge's answer); `undefined` when it has refused it nothing yet.
   */
  refused(clientKey: string): RateLimitState | undefined;
}

/** A budget: so many points in a fixed window of so many seconds. */
export interface RateLimitPolicy {
  points: number;
  windowSeconds: number;
}

/** Seconds until a window that ends in `ms` resets: at least 1, never more than the window (Redis's time to live can round above it). */
const resetSeconds = (ms: number, policy: RateLimitPolicy) => Math.min(policy.windowSeconds, Math.max(1, Math.ceil(ms / 1000)));

function toState(res: RateLimiterRes | null, allowed: boolean, policy: RateLimitPolicy): RateLimitState {
  const used = res?.consumedPoints ?? 0;
  return {
    allowed,
    limit: policy.points,
    // A refusal from the in-memory block carries no count: refused is nothing left.
    remaining: allowed ? Math.max(0, policy.points - used) : 0,
    resetSeconds: res ? resetSeconds(res.msBeforeNext, policy) : policy.windowSeconds,
  };
}

/**
 * Adapts a rate-limiter-flexible limiter (memory or Redis) to the `RateLimiter` interface;
 * `blockedMs`, when the limiter blocks refused clients in memory, reads how long a client's block lasts.
 */
export function fromFlexible(limiter: RateLimiterAbstract, policy: RateLimitPolicy, blockedMs?: (clientKey: string) => number): RateLimiter {
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
    refused(clientKey) {
      const ms = blockedMs?.(clientKey) ?? 0;
      return ms > 0 ? { allowed: false, limit: policy.points, remaining: 0, resetSeconds: resetSeconds(ms, policy) } : undefined;
    },
  };
}
