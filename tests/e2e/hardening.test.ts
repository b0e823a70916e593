/**
 * What the open internet sends, against the built server: oversized and endless bodies, slow and
 * idle sockets, thousands of generated bodies, odd media types and methods, forged identities
 * and hosts, and the headers every class of response carries.
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { call, postJson, rawRequest } from '../support/http.ts';
import { responseErrors } from '../support/openapi.ts';
import { exportLeads, startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
});
afterAll(async () => {
  await server?.dispose();
});

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/** Streams `total` bytes until the server answers or closes; reports how much it had to send. */
function upload(url: string, total: number, headers: Record<string, string | number>): Promise<{ status: number; sent: number; error?: string }> {
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    // A connection of its own, dropped once the answer is read, as a client that gets its 413 would.
    const req = httpRequest(url, { method: 'POST', headers, agent: false }, (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, sent });
        req.destroy();
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: answered ? 1 : 0, sent, error: err.code }));
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('body limits that cannot be dodged', () => {
  it('refuses a 50 MB chunked upload after the limit, without reading it all or growing memory', async () => {
    const before = rssKiB(server.pid);
    const result = await upload(`${server.url}/api/v1/leads`, 50 * 1024 * 1024, {
      ...newClient(),
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
    });
    expect(result.status, JSON.stringify(result)).toBe(413);
    expect(rssKiB(server.pid) - before).toBeLessThan(48 * 1024);
  });

  it('refuses a 50 MB upload with an honest Content-Length before reading any of it', async () => {
    const before = rssKiB(server.pid);
    const result = await upload(`${server.url}/api/v1/leads`, 50 * 1024 * 1024, {
      ...newClient(),
      'Content-Type': 'application/json',
      'Content-Length': 50 * 1024 * 1024,
    });
    expect(result.status, JSON.stringify(result)).toBe(413);
    // Streaming 50 MB through the discard path allocates transient buffers (tens of MB under a
    // busy suite, until the GC runs); a server that held the body would grow by more than all of it.
    expect(rssKiB(server.pid) - before).toBeLessThan(48 * 1024);
  });

  it('answers Expect: 100-continue for an oversized body with 413 and never invites the upload', async () => {
    const reply = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const req = httpRequest(
        `${server.url}/api/v1/leads`,
        { method: 'POST', headers: { ...newClient(), 'Content-Type': 'application/json', 'Content-Length': 50 * 1024 * 1024, Expect: '100-continue' } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, continued });
          req.destroy();
        },
      );
      req.on('continue', () => (continued = true));
      req.on('error', (err) => (continued ? resolve({ status: 0, continued }) : reject(err)));
      req.flushHeaders();
    });
    expect(reply).toEqual({ status: 413, continued: false });
  });

  it('reads no more than Content-Length says when the body is shorter than it claims to be complete', async () => {
    const body = Buffer.from(JSON.stringify(quote()));
    const reply = await rawRequest(`${server.url}/api/v1/leads`, {
      headers: { ...newClient(), 'Content-Type': 'application/json', 'Content-Length': 10 },
      chunks: [body],
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).code).toBe('malformed_json');
  });
});

describe('an uninvited body', () => {
  it('a refusal before reading (415 here) does not wait for a body that Expect: 100-continue never invited', async () => {
    const reply = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/v1/leads`,
        { method: 'POST', agent: false, headers: { ...newClient(), 'Content-Type': 'text/plain', 'Content-Length': 1_000_000, Expect: '100-continue' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(reply).toBe(415);
  });

  it('a crafted Host cannot move a request between the page and API routes', async () => {
    const reply = await rawRequest(`${server.url}/x`, {
      method: 'POST',
      headers: { Host: 'x/api/v1/leads?', 'Content-Type': 'application/json', 'Content-Length': 2 },
      chunks: [Buffer.from('{}')],
    });
    expect(reply.status).toBe(404);
    expect(reply.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('slow and idle clients', () => {
  it('closes a socket whose headers never finish, while hundreds of idle sockets keep nobody waiting', async () => {
    const idle = await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const s = connect(server.port, '127.0.0.1', () => resolve(s));
            s.on('error', () => {});
          }),
      ),
    );
    const slow = connect(server.port, '127.0.0.1');
    slow.on('error', () => {});
    slow.write('POST /api/v1/leads HTTP/1.1\r\nHost: localhost\r\nContent-Type: appl');
    const closed = new Promise<string>((resolve) => {
      let data = '';
      slow.on('data', (d) => (data += d));
      slow.on('close', () => resolve(data));
    });
    const ok = await call(`${server.url}/api/v1`);
    expect(ok.status).toBe(200);
    const answer = await closed;
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    for (const s of idle) s.destroy();
  });
});

describe('generated bodies (fast-check), each answer checked against spec/openapi.yaml', () => {
  const ALLOWED = [201, 400, 409, 413, 415, 422];
  const leadsUrl = () => `${server.url}/api/v1/leads`;
  async function check(body: string | Uint8Array, headers: Record<string, string> = {}) {
    const reply = await postJson(leadsUrl(), body, { ...newClient(), ...headers });
    expect(ALLOWED, reply.text).toContain(reply.status);
    expect(responseErrors('/api/v1/leads', 'POST', reply)).toEqual([]);
    return reply;
  }
  const fieldNames = [
    'name',
    'phone',
    'email',
    'bedrooms',
    'bathrooms',
    'service',
    'notes',
    'communicationsConsent',
    'consentTimestamp',
    'pageUrl',
    'formType',
    'helpWith',
    'message',
    '__proto__',
    'constructor',
    'prototype',
    'id',
    'receivedAt',
  ];

  it('any JSON value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => void (await check(JSON.stringify(value)))),
      { numRuns: 600 },
    );
  });

  it('valid leads with fields replaced, removed or added', async () => {
    const mutation = fc.record({
      base: fc.constantFrom('quote', 'support'),
      set: fc.dictionary(
        fc.constantFrom(...fieldNames),
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.string({ unit: 'grapheme', maxLength: 300 }),
          fc.constantFrom('', ' ', '0', '20.5', 'true', '\u202e', '\u0000', 'x'.repeat(6000), 1e308, -0),
        ),
      ),
      drop: fc.subarray(fieldNames),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async ({ base, set, drop }) => {
        const body: Record<string, unknown> = base === 'quote' ? quote() : contact();
        for (const key of drop) delete body[key];
        for (const [k, v] of Object.entries(set)) Object.defineProperty(body, k, { value: v, enumerable: true, configurable: true, writable: true });
        await check(JSON.stringify(body));
      }),
      { numRuns: 900 },
    );
  });

  it('arbitrary text and bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 400 }), async (text) => void (await check(text))),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => void (await check(bytes))),
      { numRuns: 300 },
    );
  });

  it('deep nesting, huge numbers, duplicate keys and unicode escapes', async () => {
    for (const body of [
      '['.repeat(10_000) + ']'.repeat(10_000),
      `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
      JSON.stringify(quote()).replace('"bedrooms":"3"', '"bedrooms":1e999999'),
      JSON.stringify(quote()).replace('}', ',"name":"Second Name"}'),
      JSON.stringify(quote()).replace('"Deep clean"', '"\\ud800"'),
      '\ufeff' + JSON.stringify(quote()),
    ])
      await check(body);
  });
});

describe('no prototype pollution', () => {
  it('refuses __proto__, constructor and prototype members as unknown fields and stays healthy', async () => {
    const body = JSON.stringify(quote()).replace('{', '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},');
    const reply = await postJson(`${server.url}/api/v1/leads`, body, newClient());
    expect(reply.status).toBe(422);
    expect(reply.json.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`).sort()).toEqual([
      '#/__proto__ unknown_field',
      '#/constructor unknown_field',
    ]);
    const after = await postJson(`${server.url}/api/v1/leads`, quote(), newClient());
    expect(after.status).toBe(201);
    expect(after.text).not.toContain('polluted');
    expect((await call(`${server.url}/api/v1`)).text).not.toContain('polluted');
  });
});

describe('media types and methods', () => {
  it('answers every Content-Type variant with 415 unless it is JSON in UTF-8', async () => {
    const cases: Array<[string | undefined, number]> = [
      [undefined, 415],
      ['text/plain', 415],
      ['application/x-www-form-urlencoded', 415],
      ['multipart/form-data; boundary=x', 415],
      ['application/json; charset=utf-16', 415],
      ['application/json, text/plain', 415],
      ['application/jsonx', 415],
      ['text/json', 415],
      ['application/json', 201],
      ['APPLICATION/JSON; charset=UTF-8', 201],
      ['application/json;charset=utf8', 201],
    ];
    for (const [type, status] of cases) {
      const headers: Record<string, string> = { ...newClient() };
      if (type) headers['Content-Type'] = type;
      const reply = await rawRequest(`${server.url}/api/v1/leads`, { headers, chunks: [Buffer.from(JSON.stringify(quote()))] });
      expect(reply.status, String(type)).toBe(status);
    }
  });

  it('answers every other method on the lead path with 405 (OPTIONS 204), never 5xx', async () => {
    for (const path of ['/api/v1/leads', '/api/leads', '/api/v1']) {
      const allow = (await rawRequest(`${server.url}${path}`, { method: 'DELETE' })).headers.allow;
      // (A method token Node's parser does not know, such as TRACK, is a 400 before any route.)
      for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND', 'OPTIONS', 'POST']) {
        const reply = await rawRequest(`${server.url}${path}`, { method, headers: { ...newClient(), 'Content-Length': 0 } });
        if (String(allow).split(', ').includes(method) && method !== 'OPTIONS') continue;
        expect(reply.status, `${method} ${path}`).toBe(method === 'OPTIONS' ? 204 : 405);
        expect(reply.headers.allow, `${method} ${path}`).toBe(allow);
      }
    }
    expect((await rawRequest(`${server.url}/api/unknown`, { method: 'TRACE' })).status).toBe(404);
    expect((await rawRequest(`${server.url}/no-page`, { method: 'TRACE' })).status).toBe(404);
    expect((await rawRequest(`${server.url}/developers`, { method: 'TRACE' })).status).toBe(405);
  });
});

describe('identity and host headers', () => {
  it('changes no route and no link for path or method override headers', async () => {
    const override = await rawRequest(`${server.url}/api/nothing`, { method: 'GET', headers: { 'X-Original-URL': '/api/v1', 'X-Rewrite-URL': '/api/v1' } });
    expect(override.status).toBe(404);
    const method = await rawRequest(`${server.url}/api/v1`, { method: 'POST', headers: { 'X-HTTP-Method-Override': 'GET', 'Content-Length': 0 } });
    expect(method.status).toBe(405);
    const proto = await rawRequest(`${server.url}/api/nothing`, {
      method: 'GET',
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example.com', Host: 'evil.example.com' },
    });
    expect(JSON.parse(proto.body).type).toBe('http://localhost:4321/developers/errors#not_found');
  });
});

describe('security headers on every class of response', () => {
  const NOSNIFF = 'nosniff';
  it("API answers, problems and OPTIONS: nosniff, no-store, default-src 'none'", async () => {
    for (const reply of [
      await call(`${server.url}/api/v1`),
      await call(`${server.url}/api/none`),
      await call(`${server.url}/api/v1`, { method: 'DELETE' }),
      await call(`${server.url}/api/v1`, { method: 'OPTIONS' }),
      await postJson(`${server.url}/api/v1/leads`, quote(), newClient()),
    ]) {
      expect(reply.headers.get('x-content-type-options')).toBe(NOSNIFF);
      expect(reply.headers.get('cache-control')).toBe('no-store');
      expect(reply.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('HTML pages, the 404 page and Redoc: a strict CSP and the page headers', async () => {
    for (const path of ['/', '/developers', '/developers/errors', '/missing-page', '/api-docs']) {
      const reply = await call(`${server.url}${path}`);
      const csp = reply.headers.get('content-security-policy')!;
      for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(csp, path).toContain(directive);
      if (path !== '/api-docs') expect(csp).toContain("script-src 'none'");
      else expect(csp).toMatch(/script-src 'sha256-[^ ;]+'/);
      expect(csp).not.toContain("script-src 'unsafe-inline'");
      // What only `npm run dev` adds (DEV_CSP_ADDITIONS) is never in a build.
      if (path !== '/api-docs') expect(csp, path).not.toContain("'unsafe-inline'");
      expect(reply.headers.get('x-content-type-options')).toBe(NOSNIFF);
      expect(reply.headers.get('referrer-policy')).toBeTruthy();
      expect(reply.headers.get('permissions-policy')).toBeTruthy();
      expect(reply.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(reply.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
    for (const path of ['/quote', '/contact']) {
      const csp = (await call(`${server.url}${path}`)).headers.get('content-security-policy')!;
      expect(csp, path).toContain("style-src 'self'");
      expect(csp, path).not.toContain("'unsafe-inline'");
    }
  });

  it('static files, discovery documents and 304s carry nosniff; nothing names its software or version', async () => {
    const page = await call(`${server.url}/developers`);
    const css = /href="(\/_astro\/[^"]+\.css)"/.exec(page.text)![1]!;
    const replies = [
      await call(`${server.url}${css}`),
      await call(`${server.url}/openapi.json`),
      await call(`${server.url}/llms.txt`),
      await call(`${server.url}/favicon.svg`),
    ];
    replies.push(await call(`${server.url}/openapi.json`, { headers: { 'If-None-Match': replies[1]!.headers.get('etag')! } }));
    const ids = new Set<string | null>();
    for (const reply of [...replies, page]) {
      expect(reply.headers.get('x-content-type-options')).toBe(NOSNIFF);
      // Served from memory in one header block: the request id is part of it, one per request.
      expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(reply.headers.get('x-request-id'));
      expect(reply.headers.get('server')).toBeNull();
      expect(reply.headers.get('x-powered-by')).toBeNull();
    }
    expect(ids.size).toBe(replies.length + 1);
    expect(replies[0]!.headers.get('cache-control')).toContain('immutable');
  });

  it('sends HSTS only when SITE_URL is https', async () => {
    expect((await call(`${server.url}/api/v1`)).headers.get('strict-transport-security')).toBeNull();
    const https = await startServer({ env: { SITE_URL: 'https://www.example-cleaning.com' } });
    try {
      for (const path of ['/api/v1', '/developers', '/openapi.json'])
        expect((await call(`${https.url}${path}`)).headers.get('strict-transport-security'), path).toMatch(/max-age=\d+/);
    } finally {
      await https.dispose();
    }
  });
});

describe('logs', () => {
  it('cannot be forged with CR/LF in a path: every line stays one JSON object', async () => {
    await rawRequest(`${server.url}/api/x%0D%0A%7B%22level%22%3A60%2C%22msg%22%3A%22forged%22%7D`, { method: 'GET' });
    await rawRequest(`${server.url}/x%0A{"level":60}`, { method: 'GET' });
    await new Promise((r) => setTimeout(r, 200));
    for (const line of server.logs.filter(Boolean)) {
      const entry = JSON.parse(line);
      expect(entry.msg).not.toBe('forged');
    }
  });
});

describe('idempotency under concurrency', () => {
  it('the same key arriving many times at once creates one lead', async () => {
    const body = quote();
    const key = crypto.randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 12 }, () => postJson(`${server.url}/api/v1/leads`, body, { ...newClient(), 'Idempotency-Key': key })),
    );
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
    const stored = (await exportLeads(server.databaseUrl)).filter((l) => l.id === replies[0]!.json.id);
    expect(stored).toHaveLength(1);
  });
});
