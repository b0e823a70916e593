/**
 * Refusals at the serving edge (docs/decisions/0032), on the built server: a client's first ten
 * submissions of a minute are taken (through Astro: only it stores a lead), the next is the
 * endpoint's 429, and every later one, answered by our server before Astro, is the same answer but
 * for its request id, `Date` and the seconds left (which agree with each other), with the same one
 * log line; on both lead paths and both forms, on one instance and on two behind nginx sharing
 * Redis. That the later ones never reach Astro and spend nothing is proven in process
 * (`tests/http/edge-refusal*.test.ts`); what it buys, by `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameRefusal, logLineShape, type WireReply } from '../support/edge-refusal.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { nginxAvailable, startNginx } from '../support/nginx.ts';
import { logLinesOf } from '../support/raw-http.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { redisAvailable, REDIS_URL } from '../support/services.ts';

/** The site's origin as configured: the forms are accepted from it alone. */
const SITE = 'http://www.example-cleaning.com';

/** Sends one POST to `url` (from a loopback `source` address, when given), read whole. */
function post(url: string, headers: Record<string, string>, body: string, source?: string): Promise<WireReply> {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(body);
    const req = httpRequest(url, { method: 'POST', localAddress: source, agent: false, headers: { ...headers, 'Content-Length': data.length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** The four submissions that share the budget, as a client sends them (`client`: its headers). */
const SUBMISSIONS: Record<string, { path: string; headers: Record<string, string>; body: () => string }> = {
  'POST /api/v1/leads': { path: '/api/v1/leads', headers: { 'Content-Type': 'application/json' }, body: () => JSON.stringify(quote()) },
  'POST /api/leads': { path: '/api/leads', headers: { 'Content-Type': 'application/json' }, body: () => JSON.stringify(quote()) },
  'the quote form': {
    path: '/quote?_action=submitQuote',
    headers: { Origin: SITE, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: () => 'name=Jane+Doe&email=jane.doe%40example.com',
  },
  'the contact form': {
    path: '/_actions/submitContact',
    headers: { Origin: SITE, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: () => 'name=Jane+Doe&message=Hello',
  },
};

/** Sends `what` to `base` as `client` (its headers, or a loopback source address behind nginx). */
const submit = (base: string, what: string, client: Record<string, string>, source?: string) => {
  const s = SUBMISSIONS[what]!;
  return post(`${base}${s.path}`, { ...client, ...s.headers }, s.body(), source);
};

/** Where this run's loopback source addresses start: Redis keeps a client's count past a run. */
const RUN = Math.floor(Math.random() * 250);

/** The one log line of the request that got `reply`, from whichever of `servers` answered it. */
async function lineOf(servers: RunningServer[], reply: WireReply): Promise<{ server: RunningServer; line: Record<string, unknown> }> {
  const id = reply.headers['x-request-id'] as string;
  const lines = () => servers.flatMap((server) => logLinesOf(server.logs, id).map((line) => ({ server, line })));
  await expect.poll(() => lines().length).toBe(1);
  return lines()[0]!;
}

describe('one instance', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', SITE_URL: SITE } });
  });
  afterAll(() => server?.dispose());

  it.each(Object.keys(SUBMISSIONS))('%s: every refusal after the first is the endpoint’s, with its one log line', async (what) => {
    const client = newClient();
    for (let i = 0; i < 10; i++) expect((await submit(server.url, 'POST /api/v1/leads', client)).status).toBe(201);
    const endpoint = await submit(server.url, what, client);
    const edge = [await submit(server.url, what, client), await submit(server.url, what, client)];
    for (const reply of edge) {
      expectSameRefusal(endpoint, reply, false);
      const [a, b] = [await lineOf([server], endpoint), await lineOf([server], reply)];
      expect(logLineShape(b.line)).toEqual(logLineShape(a.line));
    }
    if (what === 'POST /api/leads') expect(endpoint.headers.deprecation).toMatch(/^@\d+$/);
  });
});

describe.skipIf(!redisAvailable() || !nginxAvailable())('two instances behind nginx, sharing Redis', () => {
  let dir: string;
  let servers: RunningServer[];
  let proxy: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edge-refusal-'));
    const env = { REDIS_URL, TRUST_PROXY: '127.0.0.1', SITE_URL: SITE };
    servers = await Promise.all([startServer({ env }), startServer({ env })]);
    proxy = await startNginx(
      dir,
      await freePort(),
      servers.map((s) => s.port),
    );
  });
  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(servers.map((s) => s?.dispose()));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(SUBMISSIONS))('%s: one budget over both; every refusal is the first one’s, whichever instance answers', async (what) => {
    const base = new URL(proxy.url).origin;
    // A loopback source address of this test's own: nginx names it in X-Forwarded-For.
    const source = `127.0.${20 + (process.pid % 200)}.${1 + ((RUN + Object.keys(SUBMISSIONS).indexOf(what)) % 250)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await submit(base, 'POST /api/v1/leads', {}, source)).status);
    expect(statuses).toEqual(Array(10).fill(201));
    // Each instance refuses once through Astro, then at its edge; nginx takes turns.
    const refusals: WireReply[] = [];
    for (let i = 0; i < 6; i++) refusals.push(await submit(base, what, {}, source));
    for (const reply of refusals.slice(1)) expectSameRefusal(refusals[0]!, reply, false);
    const answered = await Promise.all(refusals.map((r) => lineOf(servers, r)));
    expect(new Set(answered.map((a) => a.server)).size).toBe(2);
    for (const { server, line } of answered) {
      const first = answered.find((a) => a.server === server)!;
      expect(logLineShape(line)).toEqual(logLineShape(first.line));
    }
  });
});
