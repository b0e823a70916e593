/**
 * Who the client is, for rate limiting and consent evidence. The TCP peer, unless configuration
 * trusts the peer as a reverse proxy; then the right-most `X-Forwarded-For` address that is not
 * itself a trusted proxy. A caller can therefore never choose its own identity.
 */
import { isIP, type BlockList } from 'node:net';

/** `::ffff:192.0.2.1` → `192.0.2.1`; other addresses unchanged (lower-cased). */
export function normaliseAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  return mapped ? mapped[1]! : a;
}

const isTrusted = (trust: BlockList, address: string) => {
  const family = isIP(address);
  return family !== 0 && trust.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

/** The client's address, from the socket peer and, only through trusted proxies, `X-Forwarded-For`. */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trust: BlockList | undefined): string {
  let client = normaliseAddress(peer ?? '') || 'unknown';
  if (!trust || !isTrusted(trust, client) || forwardedFor === undefined) return client;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map(normaliseAddress);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    // A value that is not an address was not written by a proxy we trust: stop at the last hop we can vouch for.
    if (isIP(hop) === 0) break;
    client = hop;
    if (!isTrusted(trust, hop)) break;
  }
  return client;
}
