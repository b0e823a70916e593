/**
 * The in-process limiter: a fixed window per client (it opens at the client's first submission and
 * lasts the limit's window), counted in two generations of maps instead of a timer per client.
 * A client's window is recorded in the generation current when it opened; each window the older
 * generation is dropped whole, by then every window in it has ended. So a client costs one map entry
 * of a short key and two numbers, for one to two windows, and nothing is scheduled: rate-limiter-
 * flexible's memory store keeps a record and a Node timer per client, which held 0.7–0.9 KiB per client
 * under the benchmark's soak (docs/decisions/0005). The semantics are that store's: a refused
 * submission still counts, and the window does not slide.
 */
import type { RateLimiter, RateLimitState } from './rate-limiter.ts';

interface Window {
  used: number;
  /** When the window ends, on the limiter's clock (ms). */
  endsAt: number;
}

/** The in-process limiter, and how many client windows it holds (ended ones included until dropped). */
export interface MemoryLimiter extends RateLimiter {
  held(): number;
}

/**
 * `now` is a monotonic clock by default: the wall clock can be stepped (NTP, an operator), and a
 * clock stepped back an hour would keep a client's window open for an hour.
 */
export function createMemoryLimiter(limit: { points: number; windowSeconds: number }, now: () => number = () => performance.now()): MemoryLimiter {
  const windowMs = limit.windowSeconds * 1000;
  let current = new Map<string, Window>();
  let previous = new Map<string, Window>();
  let rotatesAt = now() + windowMs;

  /** The client's open window, if any; a window found ended counts as none. */
  function find(key: string, at: number): Window | undefined {
    if (at >= rotatesAt) {
      // Two rotations due at once: the current generation's windows have all ended as well.
      previous = at >= rotatesAt + windowMs ? new Map() : current;
      current = new Map();
      rotatesAt = at + windowMs - ((at - rotatesAt) % windowMs);
    }
    const window = current.get(key) ?? previous.get(key);
    return window && window.endsAt > at ? window : undefined;
  }

  const state = (window: Window | undefined, at: number): RateLimitState => {
    const used = window?.used ?? 0;
    return {
      allowed: used <= limit.points,
      limit: limit.points,
      remaining: Math.max(0, limit.points - used),
      resetSeconds: window ? Math.min(limit.windowSeconds, Math.max(1, Math.ceil((window.endsAt - at) / 1000))) : limit.windowSeconds,
    };
  };

  return {
    async consume(key) {
      const at = now();
      let window = find(key, at);
      if (window) window.used++;
      else current.set(key, (window = { used: 1, endsAt: at + windowMs }));
      return state(window, at);
    },
    async peek(key) {
      const at = now();
      // A peek is no submission: it is never refused, whatever the client has spent (as with Redis).
      return { ...state(find(key, at), at), allowed: true };
    },
    refused(key) {
      const at = now();
      const window = find(key, at);
      // Refused once its window holds more than the budget: a submission past it was refused.
      return window && window.used > limit.points ? state(window, at) : undefined;
    },
    held: () => current.size + previous.size,
  };
}
