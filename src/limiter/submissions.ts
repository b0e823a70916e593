/**
 * The lead submissions' budget: 10 a minute per client, over the API and the web forms together
 * (every door spends it through these two functions), a client being its address, or its /64.
 */
import { isIP } from 'node:net';
import type { RateLimiter, RateLimitState } from './rate-limiter.ts';

/** Spends one of the client's submissions; the state says whether it was within the budget. */
export function spendSubmission(limiter: RateLimiter, clientAddress: string): Promise<RateLimitState> {
  return limiter.consume(rateLimitKey(clientAddress));
}

/** The client's budget, spending nothing (OPTIONS and 405 on the lead paths report it). */
export function peekSubmissions(limiter: RateLimiter, clientAddress: string): Promise<RateLimitState> {
  return limiter.peek(rateLimitKey(clientAddress));
}

/**
 * The client's refusal when one of its submissions was refused in its current window (here, or
 * with Redis by this instance), read in memory, spending nothing: what the serving edge answers by.
 */
export function refusedSubmission(limiter: RateLimiter, clientAddress: string): RateLimitState | undefined {
  return limiter.refused(rateLimitKey(clientAddress));
}

/** The rate-limit key of an address: IPv6 clients are grouped by their /64, as one site usually holds one. */
export function rateLimitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) stands for two groups.
  const width = (parts: string[]) => parts.length + (parts.at(-1)?.includes('.') ? 1 : 0);
  const groups = address.includes('::') ? [...left, ...Array(8 - width(left) - width(right)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
