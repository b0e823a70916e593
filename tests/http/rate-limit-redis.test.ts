/**
 * The submission budget with its counters in Redis, in process (`testApp()` with `REDIS_URL`): the
 * machine's Redis refuses the 11th submission of a client within a minute as the in-process limiter
 * does; and while a Redis of the test's own is down, nothing fails or hangs and the limit keeps
 * applying (the in-memory insurance limiter), until Redis is back.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';
import { quote } from '../support/fixtures.ts';
import { call } from '../support/in-process.ts';
import { countedInRedis, ownRedisAvailable, redisAvailable, REDIS_URL, startOwnRedis } from '../support/services.ts';

/** A client of this run's own (a /64 of the documentation prefix): the shared Redis keeps counters past a run. */
const ownClient = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;

/** Sends a quote request from `peer`: its answer. */
const send = (app: TestApp, peer: string) =>
  call(app, '/api/v1/leads', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(quote()), peer });

describe.skipIf(!redisAvailable())('the submission budget in Redis', () => {
  it('refuses the 11th submission of a client within a minute, and allows another client', async () => {
    const app = await testApp({ env: { REDIS_URL } });
    try {
      await countedInRedis(app, REDIS_URL);
      const peer = ownClient();
      const statuses = [];
      for (let i = 0; i < 11; i++) statuses.push((await send(app, peer)).status);
      expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
      expect(statuses[10]).toBe(429);
      expect((await send(app, ownClient())).status).toBe(201);
    } finally {
      await app.dispose();
    }
  });
});

describe.skipIf(!ownRedisAvailable())('a Redis outage', () => {
  it('produces no 5xx and no hang; limits keep applying until Redis is back', async () => {
    const redis = await startOwnRedis();
    const app = await testApp({ env: { REDIS_URL: redis.url } });
    try {
      await countedInRedis(app, redis.url);
      const peer = ownClient();
      expect((await send(app, peer)).headers.get('ratelimit-remaining')).toBe('9');
      await redis.stop();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await send(app, peer)).status);
      expect(statuses.every((s) => s < 500)).toBe(true);
      expect(statuses).toContain(201);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await app.dispose();
      await redis.stop();
    }
  });
});
