/**
 * What hostile and broken clients send below HTTP, on raw sockets against the built server:
 * broken framing, stalled bodies, hang-ups, oversized streamed bodies on kept-alive connections,
 * odd spellings of paths, and a fuzzer of request lines, headers and chunked encodings. Every case
 * gets a clear, fast, well-formed answer (or a graceful close), and the log says what happened.
 */
import fc from 'fast-check';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClient, quote } from '../support/fixtures.ts';
import { call, postJson } from '../support/http.ts';
import { exchange, logLinesOf, type Exchange } from '../support/raw-http.ts';
import { exportLeads, startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
});
afterAll(async () => {
  await server?.dispose();
});

/** The head of a lead POST from a fresh client, without its framing headers. */
const head = (extra = '') =>
  `POST /api/v1/leads HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Forwarded-For: ${newClient()['X-Forwarded-For']}\r\n${extra}`;

/** The one answer of an exchange, which must be a problem document with `code`. */
function problemOf(result: Exchange, status: number, code: string) {
  expect(result.malformed, result.raw.toString('latin1').slice(0, 300)).toBeUndefined();
  expect(result.responses.map((r) => r.status)).toEqual([status]);
  const [response] = result.responses;
  expect(response!.headers['content-type']).toBe('application/problem+json');
  expect(JSON.parse(response!.body).code).toBe(code);
  expect(response!.headers['x-content-type-options']).toBe('nosniff');
  return response!;
}

/** The log line of the request that got `response`. */
async function logged(response: { headers: Record<string, string> }) {
  // The log is written asynchronously: wait for the line, then read it.
  const requestLines = () => logLinesOf(server.logs, response.headers['x-request-id']!).filter((l) => l.msg === 'request');
  await expect.poll(() => requestLines().length).toBeGreaterThan(0);
  const lines = requestLines();
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('framing errors get a 400 problem at once, and the log says 400', () => {
  const cases: Array<[string, string]> = [
    ['Transfer-Encoding: gzip', `${head()}Transfer-Encoding: gzip\r\n\r\n{"name":"x"}`],
    ['an invalid chunk size', `${head()}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['a chunk longer than its size', `${head()}Transfer-Encoding: chunked\r\n\r\n2\r\n{"name":"x"}\r\n0\r\n\r\n`],
    ['Content-Length and Transfer-Encoding together', `${head()}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['two different Content-Lengths', `${head()}Content-Length: 5\r\nContent-Length: 7\r\n\r\n{"a":1}`],
    ['a negative Content-Length', `${head()}Content-Length: -1\r\n\r\n{}`],
  ];
  for (const [name, bytes] of cases) {
    it(name, async () => {
      const result = await exchange(server.port, bytes);
      const response = problemOf(result, 400, 'bad_request');
      // At once, not after a timeout of the server's (10 s of silence at the least): the bound only tells the two apart.
      expect(result.closedMs!, 'answered and closed without waiting for a timeout').toBeLessThan(9_000);
      expect(JSON.parse(response.body).detail).not.toMatch(/undefined/);
      const line = await logged(response);
      expect(line.status).toBe(400);
    });
  }
});

describe('a body that stops arriving', () => {
  it('gets 408 once it has been silent for 10 s, the log says 408, and the connection closes', async () => {
    const result = await exchange(server.port, `${head()}Content-Length: 100\r\n\r\n{"name":"J`, { waitMs: 60_000 });
    const response = problemOf(result, 408, 'request_timeout');
    expect(result.firstByteMs!).toBeGreaterThan(9_000);
    // The 10 s of silence, not Node's own timeouts (60 s for the headers, 300 s for the request), however busy the machine.
    expect(result.firstByteMs!).toBeLessThan(45_000);
    expect(result.ended).toBe('closed');
    expect((await logged(response)).status).toBe(408);
  });

  it('whose client hangs up is logged as the client gone, never as 200', async () => {
    const before = server.logs.length;
    await exchange(server.port, `${head()}Content-Length: 100\r\n\r\n{"name":"J`, { then: (socket) => setTimeout(() => socket.destroy(), 300), waitMs: 2_000 });
    const requestLines = () =>
      server.logs
        .slice(before)
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'request' && l.path === '/api/v1/leads');
    await expect.poll(() => requestLines().length).toBeGreaterThan(0);
    const lines = requestLines();
    expect(lines).toHaveLength(1);
    expect(lines[0], JSON.stringify(lines)).toMatchObject({ clientGone: true });
    expect(lines[0].status).not.toBe(200);
  });
});

describe('an answer sent before the body was read', () => {
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  const filler = chunk('x'.repeat(16 * 1024));

  it('reaches a client that keeps uploading after its 413; the rest is drained, and the close is graceful', async () => {
    // About 1 MB more over 1.5 s after the answer: without lingering close, the kernel would reset the connection.
    const more = Array.from({ length: 60 }, () => Buffer.from(filler));
    const result = await exchange(server.port, `${head()}Transfer-Encoding: chunked\r\n\r\n${filler}${filler}`, {
      more,
      // Sent at once: the server lingers 5 s after its answer, which a slow sender could outlast.
      pauseMs: 1,
      waitMs: 60_000,
      halfOpen: true,
    });
    expect(result.ended, 'no reset').toBe('closed');
    expect(result.written, 'the whole upload was taken').toBe(more.length);
    const response = problemOf(result, 413, 'payload_too_large');
    expect(response.headers.connection).toBe('close');
  });

  for (const [refusal, extra, status] of [
    ['413', '', 413],
    ['415', 'Content-Type: text/plain\r\n', 415],
  ] as const) {
    it(`${refusal} on a kept-alive connection after a 300 KB chunked body: the next request on the connection succeeds or is told to reconnect`, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const send = (headers: Record<string, string>, body: Buffer | undefined) =>
        new Promise<{ status: number; connection?: string }>((resolve, reject) => {
          const req = httpRequest(`${server.url}/api/v1/leads`, { method: 'POST', agent, headers: { ...newClient(), ...headers } }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          });
          req.on('error', reject);
          if (body) {
            for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.subarray(i, i + 16 * 1024));
          }
          req.end();
        });
      const contentType = extra ? 'text/plain' : 'application/json';
      const first = await send({ 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' }, Buffer.alloc(300 * 1024, 0x20));
      expect(first.status).toBe(status);
      const next = await send({ 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify(quote())));
      expect(next.status).toBe(201);
      agent.destroy();
    });
  }

  it('a small refused body is drained and the connection stays usable', async () => {
    const body = JSON.stringify(quote());
    const refused = `POST /api/v1/leads HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const accepted = `${head()}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    const result = await exchange(server.port, refused + accepted);
    expect(result.malformed).toBeUndefined();
    expect(result.responses.map((r) => r.status)).toEqual([415, 201]);
  });
});

describe('odd spellings of a path are that path, with its answers and headers', () => {
  const spellings = ['/api\\v1\\leads', '/x/../api/v1/leads', '/%2e%2e/api/v1/leads', '//api/v1/leads', '/api/v1/./leads', '/api//v1///leads'];
  for (const spelling of spellings) {
    it(spelling, async () => {
      const body = JSON.stringify(quote());
      const result = await exchange(
        server.port,
        `POST ${spelling} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Forwarded-For: ${newClient()['X-Forwarded-For']}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(result.malformed).toBeUndefined();
      const [response] = result.responses;
      expect(response!.status).toBe(201);
      expect(response!.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response!.headers['ratelimit-limit']).toBe('10');
      const line = await logged(response!);
      expect(line).toMatchObject({ path: '/api/v1/leads', target: spelling.replace(/\?.*/, '') });
      expect((await exportLeads(server.databaseUrl)).find((l) => l.id === JSON.parse(response!.body).id)).toMatchObject({ receivedVia: '/api/v1/leads' });
    });
  }

  it("an unknown API path spelt oddly is a 404 problem with the API's headers", async () => {
    for (const spelling of ['/api\\v1\\nothing', '/x/../api/nothing', '//api/v9']) {
      const result = await exchange(server.port, `GET ${spelling} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      problemOf(result, 404, 'not_found');
      expect(result.responses[0]!.headers['content-security-policy']).toContain("default-src 'none'");
    }
  });

  it('a target that is not a path is a 400 problem', async () => {
    for (const target of ['*', 'example.com:443', '/%E0%A4%A']) {
      problemOf(await exchange(server.port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`), 400, 'bad_request');
    }
  });
});

describe('the stored user agent', () => {
  it('is cleaned of control characters (C1 included) and bounded, and exported clean', async () => {
    // Bytes 0x80-0xFF are obs-text, which HTTP lets through in a header value: 0x9B is a terminal's CSI, 0x85 a line break.
    const hostile = `Mozilla/5.0 \x9b31m(red)\x9b0m \x85next\xa0${'A'.repeat(12_000)}`;
    const body = JSON.stringify(quote());
    const result = await exchange(
      server.port,
      Buffer.concat([
        Buffer.from(`${head()}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nUser-Agent: `, 'latin1'),
        Buffer.from(hostile, 'latin1'),
        Buffer.from(`\r\n\r\n${body}`),
      ]),
    );
    expect(result.responses[0]!.status).toBe(201);
    const id = JSON.parse(result.responses[0]!.body).id;
    const lead = (await exportLeads(server.databaseUrl)).find((l) => l.id === id) as { consent: { userAgent: string } };
    expect(lead.consent.userAgent.length).toBeLessThanOrEqual(512);
    expect(lead.consent.userAgent).toMatch(/^Mozilla\/5\.0 31m\(red\) 0m next AAAA/);
    expect(lead.consent.userAgent).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
  });
});

describe('the framing layer under fuzzing (fast-check, raw sockets)', () => {
  const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/);
  const junk = fc.string({ unit: 'binary-ascii', maxLength: 60 });
  const often = <T>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) => fc.oneof({ weight: 9, arbitrary: usual }, { weight: 1, arbitrary: odd });
  const method = often(fc.constantFrom('GET', 'HEAD', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PATCH'), fc.oneof(token, junk));
  const target = often(
    fc.constantFrom(
      '/api/v1/leads',
      '/api/v1/leads',
      '/api/leads',
      '/api/v1',
      '/',
      '/developers',
      '/openapi.json',
      '/api/../api/v1/leads',
      '//api/v1/leads',
      '/api\\v1\\leads',
      '/api/v9',
      '*',
      '/api/%zz',
      'http://evil.example.com/api/v1/leads',
    ),
    junk,
  );
  const version = often(fc.constant('HTTP/1.1'), fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 ', 'http/1.1', 'HTTP/9', ''));
  const header = often(
    fc.constantFrom(
      'Content-Type: application/json',
      'Content-Type: application/json; charset=utf-8',
      'Content-Type: text/plain',
      'Expect: 100-continue',
      'Connection: close',
      'Connection: keep-alive',
      'Idempotency-Key: "k1"',
      'User-Agent: fuzz',
      'Upgrade: websocket',
      'Host: evil.example.com',
      'Authorization: Bearer x',
      'X-Forwarded-For: 198.51.100.7',
    ),
    fc.oneof(
      fc.tuple(token, junk).map(([name, value]) => `${name}: ${value.replace(/[\r\n]/g, '')}`),
      junk,
    ),
  );
  const lead = JSON.stringify(quote());
  const content = fc.oneof(fc.constant(lead), fc.json({ maxDepth: 2 }), fc.string({ unit: 'binary', maxLength: 120 }));
  const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
  // How the body is framed: honestly, off by a few bytes, chunked well or badly, or with codings this server does not take.
  const framing = fc.oneof(
    { weight: 3, arbitrary: content.map((b) => ({ headers: [`Content-Length: ${Buffer.byteLength(b)}`], body: b })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(content, fc.integer({ min: -8, max: 8 }))
        .map(([b, off]) => ({ headers: [`Content-Length: ${Math.max(0, Buffer.byteLength(b) + off)}`], body: b })),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(content, { maxLength: 3 })
        .map((parts) => ({ headers: ['Transfer-Encoding: chunked'], body: `${parts.map(chunk).join('')}0\r\n\r\n` })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ unit: 'binary-ascii', maxLength: 6 }), content, fc.constantFrom('', '0\r\n\r\n', '\r\n'))
        .map(([size, b, end]) => ({ headers: ['Transfer-Encoding: chunked'], body: `${size}\r\n${b}\r\n${end}` })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom('gzip', 'gzip, chunked', 'chunked, gzip', 'identity', 'chunked, chunked'), content).map(([coding, b]) => ({
        headers: [`Transfer-Encoding: ${coding}`, ...(coding.endsWith('chunked') ? [] : [`Content-Length: ${Buffer.byteLength(b)}`])],
        body: coding.endsWith('chunked') ? `${chunk(b)}0\r\n\r\n` : b,
      })),
    },
    { weight: 1, arbitrary: fc.constant({ headers: [] as string[], body: '' }) },
  );
  const eol = often(fc.constant('\r\n'), fc.constantFrom('\n', '\r', '\r\r\n'));
  // Half the requests are lead submissions, so that the bodies reach the route; half go anywhere.
  const line = fc.oneof(
    fc.constant({ method: 'POST', target: '/api/v1/leads', headers: ['Content-Type: application/json'] }),
    fc.tuple(method, target).map(([m, t]) => ({ method: m, target: t, headers: [] as string[] })),
  );
  const request = fc
    .tuple(line, version, fc.array(header, { maxLength: 4 }), framing, eol)
    .map(
      ([l, v, headers, f, e]) =>
        `${l.method} ${l.target} ${v}${e}${['Host: localhost', `X-Forwarded-For: ${newClient()['X-Forwarded-For']}`, ...l.headers, ...headers, ...f.headers].join(e)}${e}${e}${f.body}`,
    );

  it('answers every generated request well formed, with no 5xx, and ends every connection within the timeouts', async () => {
    const samples = fc.sample(request, { numRuns: 400, seed: 20261122 });
    const results: Array<{ request: string; result: Exchange }> = [];
    // Fifty at a time. A client that leaves its body unfinished stops sending after 2 s (it half-closes).
    for (let i = 0; i < samples.length; i += 50) {
      results.push(
        ...(await Promise.all(
          samples.slice(i, i + 50).map(async (bytes) => ({
            request: bytes,
            result: await exchange(server.port, Buffer.from(bytes, 'latin1'), {
              waitMs: 50_000,
              head: bytes.startsWith('HEAD '),
              then: (s) => setTimeout(() => s.end(), 2_000),
            }),
          })),
        )),
      );
    }
    const statuses = results.flatMap(({ result }) => result.responses.map((r) => r.status));
    const histogram = Object.fromEntries([...new Set(statuses)].sort().map((s) => [s, statuses.filter((x) => x === s).length]));
    console.log(`framing fuzz: ${results.length} connections, answers by status: ${JSON.stringify(histogram)}`);
    for (const { request: sent, result } of results) {
      const what = `${JSON.stringify(sent.slice(0, 300))} -> ${JSON.stringify(result.raw.toString('latin1').slice(0, 300))}`;
      expect(result.ended, what).not.toBe('open');
      // Closed by the client's end, the 10 s of silence or an answer, never left to Node's own 60 s timeouts.
      expect(result.closedMs!, what).toBeLessThan(2_000 + 10_000 + 30_000);
      expect(result.malformed, what).toBeUndefined();
      for (const response of result.responses) expect(response.status, what).toBeLessThan(500);
    }
    // The generator reaches past the parser: routes answered (201, 4xx problems), not only 400s.
    expect(Object.keys(histogram).length).toBeGreaterThanOrEqual(6);
    // Still serving, and every line it logged is one JSON object with no 5xx.
    expect((await call(`${server.url}/api/v1`)).status).toBe(200);
    expect((await postJson(`${server.url}/api/v1/leads`, quote(), newClient())).status).toBe(201);
    for (const line of server.logs.filter(Boolean)) {
      const entry = JSON.parse(line);
      if (entry.msg === 'request') expect(entry.status ?? 0, line).toBeLessThan(500);
      expect(entry.level, line).toBeLessThan(50);
    }
  });
});
