/**
 * Refusals at the serving edge (docs/decisions/0032) on two instances sharing the budget in the
 * machine's Redis, in process: each instance is the server's own transport in front of a stand-in
 * for Astro (`edgeServer`). The budget a client spends on both is one; the instance that refused it
 * answers its next submissions at its edge, the same 429 but for the seconds, spending nothing in
 * Redis; the other still asks Redis through Astro, is refused, and from then on answers at its edge
 * too. On both lead paths and both forms.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey } from '../../src/limiter/submissions.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { edgeServer, expectSameRefusal, type EdgeServer, type WireReply } from '../support/edge-refusal.ts';
import { quote } from '../support/fixtures.ts';
import { countedInRedis, redisAvailable, REDIS_URL } from '../support/services.ts';

const SITE = 'http://localhost:4321';

/** A client of this run's own (a /64 of the documentation prefix): the shared Redis keeps counters past a run. */
const ownClient = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;

const SUBMISSIONS: Record<string, (server: EdgeServer, client: string) => Promise<WireReply>> = {
  'POST /api/v1/leads': (s, c) => s.post('/api/v1/leads', { 'X-Forwarded-For': c, 'Content-Type': 'application/json' }, JSON.stringify(quote())),
  'POST /api/leads': (s, c) => s.post('/api/leads', { 'X-Forwarded-For': c, 'Content-Type': 'application/json' }, JSON.stringify(quote())),
  'the quote form': (s, c) =>
    s.post('/quote?_action=submitQuote', { 'X-Forwarded-For': c, Origin: SITE, 'Content-Type': 'application/x-www-form-urlencoded' }, 'name=Jane+Doe'),
  'the contact form': (s, c) =>
    s.post('/_actions/submitContact', { 'X-Forwarded-For': c, Origin: SITE, 'Content-Type': 'application/x-www-form-urlencoded' }, 'name=Jane+Doe'),
};

describe.skipIf(!redisAvailable())('refusals at the edge of two instances sharing Redis', () => {
  const apps: TestApp[] = [];
  const servers: EdgeServer[] = [];
  let redis: Redis;
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const app = await testApp({ env: { REDIS_URL, TRUST_PROXY: '127.0.0.1, ::1' } });
      apps.push(app);
      await countedInRedis(app, REDIS_URL);
      servers.push(await edgeServer(app));
    }
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    for (const s of servers) await s.stop();
    for (const a of apps) await a.dispose();
  });

  /** What Redis holds of the client's budget: its count. */
  const counted = async (client: string) => Number(await redis.get(`lead-intake:leads:${rateLimitKey(client)}`));

  it.each(Object.keys(SUBMISSIONS))('%s: each instance refuses through Astro once, then at its edge, spending nothing', async (what) => {
    const [a, b] = servers as [EdgeServer, EdgeServer];
    const submit = SUBMISSIONS[what]!;
    const client = ownClient();
    // Ten across both instances: one budget.
    for (let i = 0; i < 10; i++) expect((await SUBMISSIONS['POST /api/v1/leads']!(i % 2 ? b : a, client)).status).toBe(201);
    const through = (server: EdgeServer) => async () => {
      const before = server.astroCalls();
      const reply = await submit(server, client);
      return { reply, viaAstro: server.astroCalls() - before === 1 };
    };
    const firstB = await through(b)();
    expect(firstB).toMatchObject({ viaAstro: true, reply: { status: 429 } });
    const edgeB = await through(b)();
    expect(edgeB.viaAstro).toBe(false);
    expectSameRefusal(firstB.reply, edgeB.reply, false);
    expect(await counted(client)).toBe(11);
    // The other instance has seen no refusal of this client: Redis refuses it there, through Astro.
    const firstA = await through(a)();
    expect(firstA).toMatchObject({ viaAstro: true, reply: { status: 429 } });
    expectSameRefusal(firstA.reply, edgeB.reply, false);
    const edgeA = await through(a)();
    expect(edgeA.viaAstro).toBe(false);
    expectSameRefusal(firstA.reply, edgeA.reply, false);
    expect(await counted(client)).toBe(12);
    // Another client is untouched, on either instance.
    expect((await SUBMISSIONS['POST /api/v1/leads']!(b, ownClient())).status).toBe(201);
  });
});
