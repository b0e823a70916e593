/**
 * Beyond one machine, on real engines: two built instances behind a real nginx, sharing PostgreSQL
 * and Redis; the rate limit holds across instances, every 201 is stored exactly once, and an outage
 * of PostgreSQL is answered honestly and recovered from without a restart. A Redis outage needs
 * Redis alone: `tests/http/rate-limit-redis.test.ts`, in process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { call, postJson } from '../support/http.ts';
import { nginxAvailable, startNginx } from '../support/nginx.ts';
import { exportLeads, startServer, type RunningServer } from '../support/server.ts';
import { createSchema, postgresAvailable, redisAvailable, REDIS_URL, schemaUrl, tcpProxy, POSTGRES_BASE } from '../support/services.ts';

const engines = postgresAvailable() && redisAvailable();

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** POSTs through nginx from a loopback source address of the test's choosing (nginx's $remote_addr). */
function postFrom(source: string, url: string, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = httpRequest(
      url,
      { method: 'POST', localAddress: source, agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': data.length } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        // nginx answers 502 in HTML for a request cut off by a killed instance: not JSON, not acknowledged.
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

describe.skipIf(!engines || !nginxAvailable())('two instances behind nginx, sharing PostgreSQL and Redis', () => {
  let dir: string;
  let schema: Awaited<ReturnType<typeof createSchema>>;
  let a: RunningServer;
  let b: RunningServer;
  let proxy: { url: string; stop(): Promise<void> };
  const acknowledged: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'multi-'));
    schema = await createSchema();
    const env = { DATABASE_URL: schema.url, REDIS_URL, TRUST_PROXY: '127.0.0.1' };
    // Both instances start at once: migrations are serialised by an advisory lock.
    [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    proxy = await startNginx(dir, await freePort(), [a.port, b.port]);
  });
  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([a?.dispose(), b?.dispose()]);
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the 11th submission from one client within a minute is refused, whichever instance it reaches', async () => {
    const source = `127.0.${10 + (process.pid % 200)}.${1 + (Date.now() % 200)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const reply = await postFrom(source, `${proxy.url}/api/v1/leads`, i % 2 ? quote() : contact());
      statuses.push(reply.status);
      if (reply.status === 201) acknowledged.push(reply.json.id);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses[10]).toBe(429);
    const servedBy = (s: RunningServer) => s.logs.filter((l) => l.includes('"path":"/api/v1/leads"')).length;
    expect(servedBy(a)).toBeGreaterThan(0);
    expect(servedBy(b)).toBeGreaterThan(0);
  });

  it('takes the client address from nginx through TRUST_PROXY', async () => {
    const source = '127.0.77.7';
    const reply = await postFrom(source, `${proxy.url}/api/v1/leads`, quote());
    expect(reply.status).toBe(201);
    acknowledged.push(reply.json.id);
    const stored = (await exportLeads(schema.url)).find((l) => l.id === reply.json.id) as { consent: { clientAddress: string } };
    expect(stored.consent.clientAddress).toBe(source);
  });

  it('stores every 201 through either instance exactly once, even with an instance killed under load', async () => {
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        const source = `127.1.${Math.floor(n / 200) % 250}.${1 + (n++ % 200)}`;
        const reply = await postFrom(source, `${proxy.url}/api/v1/leads`, Math.random() < 0.5 ? quote() : contact()).catch(() => undefined);
        if (reply?.status === 201) acknowledged.push(reply.json.id);
        if (reply) expect(reply.status).not.toBe(500);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    while (acknowledged.length < 80) await new Promise((r) => setTimeout(r, 10));
    await b.stop('SIGKILL');
    const target = acknowledged.length + 40;
    while (acknowledged.length < target) await new Promise((r) => setTimeout(r, 10));
    stop = true;
    await Promise.all(workers);
    const ids = (await exportLeads(schema.url)).map((l) => l.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const stored = new Set(ids);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });
});

describe.skipIf(!postgresAvailable())('PostgreSQL outages are answered honestly', () => {
  it('lead POSTs get 503 with Retry-After and GET /api/v1 reports unavailable, then both recover without a restart', async () => {
    const schema = await createSchema();
    const cut = await tcpProxy(5432);
    const url = schemaUrl(POSTGRES_BASE.replace('5432', String(cut.port)), schema.name);
    const server = await startServer({ env: { DATABASE_URL: url, TRUST_PROXY: '127.0.0.1, ::1' } });
    try {
      expect((await postJson(`${server.url}/api/v1/leads`, quote(), newClient())).status).toBe(201);
      await cut.pause();
      const refused = await postJson(`${server.url}/api/v1/leads`, quote(), newClient());
      expect(refused.status).toBe(503);
      expect(refused.json.code).toBe('service_unavailable');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      const status = await call(`${server.url}/api/v1`);
      expect(status.status).toBe(503);
      expect(status.json.status).toBe('unavailable');
      await cut.resume();
      let recovered = 0;
      for (let i = 0; i < 300 && recovered !== 201; i++) {
        recovered = (await postJson(`${server.url}/api/v1/leads`, quote(), newClient())).status;
        if (recovered !== 201) await new Promise((r) => setTimeout(r, 200));
      }
      expect(recovered).toBe(201);
      // The health answer is kept for a second, so the status recovers within about that.
      await expect.poll(async () => (await call(`${server.url}/api/v1`)).json.status, { timeout: 60_000, interval: 250 }).toBe('ok');
    } finally {
      await server.dispose();
      await cut.close();
      await schema.drop();
    }
  });
});
