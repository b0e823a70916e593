import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientAddress, normaliseAddress } from '../../src/http/client-address.ts';
import { rateLimitKey } from '../../src/limiter/submissions.ts';

const trust = (...entries: string[]) => {
  const list = new BlockList();
  for (const e of entries) {
    const [a, bits] = e.split('/');
    if (bits) list.addSubnet(a!, Number(bits), a!.includes(':') ? 'ipv6' : 'ipv4');
    else list.addAddress(a!, a!.includes(':') ? 'ipv6' : 'ipv4');
  }
  return list;
};

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.7', '6.6.6.6', undefined)).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddress('203.0.113.7', '6.6.6.6', trust('10.0.0.1'))).toBe('203.0.113.7');
  });

  it('takes the right-most address that is not a trusted proxy', () => {
    const t = trust('10.0.0.0/8');
    expect(clientAddress('10.0.0.1', '6.6.6.6, 198.51.100.9, 10.0.0.2', t)).toBe('198.51.100.9');
    expect(clientAddress('10.0.0.1', ['6.6.6.6', '198.51.100.9'], t)).toBe('198.51.100.9');
  });

  it('stops at a hop that is not an address instead of believing what lies left of it', () => {
    expect(clientAddress('10.0.0.1', '6.6.6.6, garbage, 10.0.0.2', trust('10.0.0.0/8'))).toBe('10.0.0.2');
  });

  it('normalises IPv4-mapped IPv6 peers', () => {
    expect(normaliseAddress('::FFFF:192.0.2.1')).toBe('192.0.2.1');
    expect(clientAddress('::ffff:127.0.0.1', '198.51.100.4', trust('127.0.0.1'))).toBe('198.51.100.4');
  });
});

describe('rateLimitKey', () => {
  it('keeps IPv4 addresses whole', () => {
    expect(rateLimitKey('198.51.100.4')).toBe('198.51.100.4');
  });

  it('groups IPv6 addresses by their /64', () => {
    expect(rateLimitKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitKey('1::2:3:4:5:1.2.3.4')).toBe('1:0:2:3::/64');
  });
});
