/**
 * The rate limit, in process through the front door the server uses: 10 a minute per client, both
 * lead paths together, headers on every answer; the client as the server tells it (its TCP peer, or
 * through a trusted proxy the right-most untrusted `X-Forwarded-For` address, IPv6 by its /64).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { call, postJson as post, type Reply } from '../support/in-process.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
});
afterAll(() => app?.dispose());

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) => post(app, path, body, headers);

const rateHeaders = (r: Reply) => ({
  limit: r.headers.get('ratelimit-limit'),
  remaining: Number(r.headers.get('ratelimit-remaining')),
  reset: Number(r.headers.get('ratelimit-reset')),
  policy: r.headers.get('ratelimit-policy'),
});

describe('rate limit', () => {
  it('11th submission in a minute gets 429 with Retry-After, counted over both paths, valid or not', async () => {
    const client = newClient();
    const replies: Reply[] = [];
    for (let i = 0; i < 10; i++) {
      const path = i % 2 === 0 ? '/api/v1/leads' : '/api/leads';
      const body = i % 3 === 0 ? { broken: true } : i % 3 === 1 ? quote() : contact();
      replies.push(await postJson(path, body, client));
    }
    expect(replies.map((r) => r.status)).toEqual([422, 201, 201, 422, 201, 201, 422, 201, 201, 422]);
    replies.forEach((r, i) => {
      const h = rateHeaders(r);
      expect(h.limit).toBe('10');
      expect(h.policy).toBe('10;w=60');
      expect(h.remaining).toBe(9 - i);
      expect(h.reset).toBeGreaterThan(0);
      expect(h.reset).toBeLessThanOrEqual(60);
      expect(r.headers.get('retry-after')).toBeNull();
    });

    for (const path of ['/api/v1/leads', '/api/leads']) {
      const refused = await postJson(path, quote(), client);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.json.code).toBe('rate_limited');
      const h = rateHeaders(refused);
      expect(h.remaining).toBe(0);
      expect(refused.headers.get('retry-after')).toBe(String(h.reset));
      if (path === '/api/leads') expect(refused.headers.get('deprecation')).toMatch(/^@\d+$/);
    }

    // Asking what the path allows is not a submission: it shows the spent budget and counts nothing, with no Retry-After.
    const options = await call(app, '/api/v1/leads', { method: 'OPTIONS', headers: client });
    expect(options.status).toBe(204);
    expect(Number(options.headers.get('ratelimit-remaining'))).toBe(0);
    expect(options.headers.get('retry-after')).toBeNull();
  });

  it('is checked before everything else, even before the Authorization header', async () => {
    const client = newClient();
    for (let i = 0; i < 10; i++) await postJson('/api/v1/leads', 'x', { ...client, 'Content-Type': 'text/plain' });
    const reply = await postJson('/api/v1/leads', 'x', { ...client, Authorization: 'Bearer x' });
    expect(reply.json.code).toBe('rate_limited');
  });

  it('keeps a separate budget for each client', async () => {
    const a = newClient();
    for (let i = 0; i < 11; i++) await postJson('/api/v1/leads', {}, a);
    const other = await postJson('/api/v1/leads', {}, newClient());
    expect(other.status).toBe(422);
    expect(rateHeaders(other).remaining).toBe(9);
  });

  it('groups IPv6 clients by their /64', async () => {
    const prefix = `2001:db8:ffff:${(process.pid % 65535).toString(16)}`;
    for (let i = 0; i < 10; i++) await postJson('/api/v1/leads', {}, { 'X-Forwarded-For': `${prefix}::${i + 1}` });
    const reply = await postJson('/api/v1/leads', {}, { 'X-Forwarded-For': `${prefix}:1:2:3:4` });
    expect(reply.status).toBe(429);
  });

  it('takes the right-most untrusted X-Forwarded-For address, so a forged left entry buys nothing', async () => {
    const real = '198.51.100.77';
    for (let i = 0; i < 10; i++) await postJson('/api/v1/leads', {}, { 'X-Forwarded-For': `203.0.113.${i}, ${real}` });
    const reply = await postJson('/api/v1/leads', {}, { 'X-Forwarded-For': `203.0.113.200, ${real}` });
    expect(reply.status).toBe(429);
  });

  it('does not apply to GET /api/v1', async () => {
    const client = newClient();
    for (let i = 0; i < 12; i++) expect((await call(app, '/api/v1', { headers: client })).status).toBe(200);
  });
});

describe('without TRUST_PROXY', () => {
  it('ignores X-Forwarded-For, so a caller cannot choose its own identity', async () => {
    const plain = await testApp();
    try {
      const statuses = [];
      for (let i = 0; i < 11; i++) statuses.push((await post(plain, '/api/v1/leads', {}, { 'X-Forwarded-For': `203.0.113.${i}` })).status);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await plain.dispose();
    }
  });
});
