/**
 * Compressed answers of the built server: every prerendered text file in Brotli and gzip to a client
 * that accepts them, decoding to exactly the bytes sent to one that does not, each coding with its
 * own ETag and its own 304, `Vary: Accept-Encoding` on every representation, HEAD alike. Checked on
 * a server running with the build's origin (the build's own compressed files) and on one running
 * with another origin (the files compressed again at start-up, as their bytes differ).
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_COMPRESSIBLE_BYTES } from '../../src/lib/compression.ts';
import { MAX_HELD_BYTES } from '../../src/server/held-response.ts';
import { decode, textPaths } from '../support/codings.ts';
import { quote } from '../support/fixtures.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request (GET unless said) with exactly `headers` (no client of ours adds or decodes anything), its body as bytes. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each([
  ["the build's origin", {}],
  ['another origin', { SITE_URL: 'https://leads.example.org' }],
])('prerendered files served with %s', (_, env: Record<string, string>) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('are compressed where it pays: /api-docs, its script, /openapi.json and /llms.txt in both codings', async () => {
    for (const path of ['/api-docs', '/api-docs/redoc.js', '/openapi.json', '/llms.txt', '/developers']) {
      for (const coding of ['br', 'gzip'] as const) {
        const reply = await get(`${server.url}${path}`, { 'Accept-Encoding': coding });
        expect(reply.headers['content-encoding'], `${path} ${coding}`).toBe(coding);
      }
    }
    const script = await get(`${server.url}/api-docs/redoc.js`, { 'Accept-Encoding': 'br' });
    const plain = await get(`${server.url}/api-docs/redoc.js`);
    expect(script.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('send each coding, decoding to exactly the identity bytes, with its own ETag, its own 304 and Vary; HEAD alike', async () => {
    const paths = textPaths();
    expect(paths).toEqual(expect.arrayContaining(['/', '/api-docs', '/api-docs/redoc.js', '/openapi.json', '/llms.txt', '/robots.txt']));
    let coded = 0;
    for (const path of paths) {
      const url = `${server.url}${path}`;
      const identity = await get(url);
      expect(identity.status, path).toBe(200);
      expect(identity.headers['content-encoding'], path).toBeUndefined();
      const etags = new Set([identity.headers.etag]);
      for (const coding of ['br', 'gzip'] as const) {
        const reply = await get(url, { 'Accept-Encoding': coding });
        expect(reply.status, path).toBe(200);
        if (reply.headers['content-encoding'] === undefined) {
          // Too small to pay: the identity, the same for every client.
          expect(reply.body.equals(identity.body), path).toBe(true);
          expect(reply.headers.etag, path).toBe(identity.headers.etag);
          continue;
        }
        coded++;
        expect(reply.headers['content-encoding'], path).toBe(coding);
        expect(reply.headers.vary, path).toBe('Accept-Encoding');
        expect(identity.headers.vary, path).toBe('Accept-Encoding');
        expect(Number(reply.headers['content-length']), path).toBe(reply.body.length);
        expect(decode[coding](reply.body).equals(identity.body), `${path} ${coding} decodes to the identity`).toBe(true);
        etags.add(reply.headers.etag);
        const revalidated = await get(url, { 'Accept-Encoding': coding, 'If-None-Match': String(reply.headers.etag) });
        expect(revalidated.status, path).toBe(304);
        expect(revalidated.headers.etag, path).toBe(reply.headers.etag);
        expect(revalidated.headers.vary, path).toBe('Accept-Encoding');
        // Another coding's validator does not stand for this one.
        const crossed = await get(url, { 'Accept-Encoding': coding, 'If-None-Match': String(identity.headers.etag) });
        expect(crossed.status, path).toBe(200);
        const head = await get(url, { 'Accept-Encoding': coding }, 'HEAD');
        expect(head.body.length, path).toBe(0);
        for (const name of ['content-encoding', 'content-length', 'etag', 'vary']) expect(head.headers[name], `${path} HEAD ${name}`).toBe(reply.headers[name]);
      }
      // One ETag per representation sent.
      expect(etags.size, path).toBe(1 + (identity.headers.vary ? 2 : 0));
      const again = await get(url, { 'If-None-Match': String(identity.headers.etag) });
      expect(again.status, path).toBe(304);
    }
    expect(coded).toBeGreaterThanOrEqual(20);
  });

  it.runIf(env.SITE_URL === undefined)("are the build's own compressed files when the bytes served are the build's", async () => {
    // A page that states no configured value (the environment, the retention period), so its bytes are the build's.
    const built = readFileSync(join(ROOT, 'dist/precompressed/developers/errors/index.html.br'));
    const served = await get(`${server.url}/developers/errors`, { 'Accept-Encoding': 'br' });
    expect(served.body.equals(built)).toBe(true);
  });

  it('send no coding to a client that does not accept one', async () => {
    const plain = await get(`${server.url}/openapi.json`);
    for (const accept of ['identity', 'br;q=0, gzip;q=0', 'deflate', 'compress, *;q=0', 'zstd']) {
      const reply = await get(`${server.url}/openapi.json`, { 'Accept-Encoding': accept });
      expect(reply.headers['content-encoding'], accept).toBeUndefined();
      expect(reply.body.equals(plain.body), accept).toBe(true);
    }
    // The client's preference, then the server's: gzip when Brotli is refused or weighed lower, Brotli for any coding.
    expect((await get(`${server.url}/openapi.json`, { 'Accept-Encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get(`${server.url}/openapi.json`, { 'Accept-Encoding': 'gzip, deflate, br, zstd' })).headers['content-encoding']).toBe('br');
    expect((await get(`${server.url}/openapi.json`, { 'Accept-Encoding': '*' })).headers['content-encoding']).toBe('br');
  });

  it('the 404 page too, with its status', async () => {
    const reply = await get(`${server.url}/no-such-page`, { 'Accept-Encoding': 'br' });
    const plain = await get(`${server.url}/no-such-page`);
    expect(reply.status).toBe(404);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(reply.body).equals(plain.body)).toBe(true);
  });
});

describe('answers rendered on demand', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('are compressed when they are text that pays: the web forms and GET /api/v1, with Vary', async () => {
    for (const coding of ['br', 'gzip'] as const) {
      const status = await get(`${server.url}/api/v1`, { 'Accept-Encoding': coding });
      expect(status.headers['content-encoding']).toBe(coding);
      expect(status.headers.vary).toBe('Accept-Encoding');
      expect(Number(status.headers['content-length'])).toBe(status.body.length);
      const identity = await get(`${server.url}/api/v1`);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(decode[coding](status.body).toString())).toEqual(JSON.parse(identity.body.toString()));
      for (const page of ['/quote', '/contact']) {
        const reply = await get(`${server.url}${page}`, { 'Accept-Encoding': coding });
        expect(reply.status, page).toBe(200);
        expect(reply.headers['content-encoding'], page).toBe(coding);
        expect(reply.headers['cache-control'], page).toBe('no-store');
        const html = decode[coding](reply.body).toString();
        expect(html, page).toMatch(/^<!DOCTYPE html>[\s\S]*<form[\s\S]*<\/html>$/);
        expect(reply.body.length, page).toBeLessThan(html.length / 2);
      }
    }
  });

  it("compress a problem document like any other answer: a lead's largest 422 is held whole, within MAX_HELD_BYTES, and sent in the coding asked for", async () => {
    // 56 members the form does not have, each named with 80 emoji: 18 KB sent, each name escaped in its pointer three times over.
    const name = (i: number) => `${String(i).padStart(2, '0')}${'🧽'.repeat(80)}`;
    const body = JSON.stringify({ ...quote(), ...Object.fromEntries(Array.from({ length: 56 }, (_, i) => [name(i), 0])) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(20_000);
    const send = (coding?: 'br' | 'gzip') =>
      get(`${server.url}/api/v1/leads`, { 'Content-Type': 'application/json', ...(coding && { 'Accept-Encoding': coding }) }, 'POST', body);
    const identity = await send();
    expect(identity.status).toBe(422);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(MIN_COMPRESSIBLE_BYTES);
    expect(identity.body.length).toBeLessThan(MAX_HELD_BYTES / 8);
    const document = JSON.parse(identity.body.toString());
    expect(document).toMatchObject({ code: 'validation_failed', errorsOmitted: 6 });
    expect(document.errors).toHaveLength(50);
    for (const coding of ['br', 'gzip'] as const) {
      const reply = await send(coding);
      expect(reply.status, coding).toBe(422);
      expect(reply.headers['content-type'], coding).toBe('application/problem+json');
      expect(reply.headers['content-encoding'], coding).toBe(coding);
      expect(reply.headers.vary, coding).toBe('Accept-Encoding');
      expect(Number(reply.headers['content-length']), coding).toBe(reply.body.length);
      expect(reply.body.length, coding).toBeLessThan(identity.body.length / 10);
      const decoded = JSON.parse(decode[coding](reply.body).toString());
      expect({ ...decoded, instance: document.instance }).toEqual(document);
    }
    // 18 KB of zeros in a list is one problem: a small answer, not the 1.86 MB it was.
    const zeros = JSON.stringify(quote({ allowedContact: Array(9000).fill(0) }));
    const small = await get(`${server.url}/api/v1/leads`, { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' }, 'POST', zeros);
    expect(small.status).toBe(422);
    expect(small.body.length).toBeLessThan(MIN_COMPRESSIBLE_BYTES);
  });

  it('are sent as they are when compressing does not pay (a 300-byte problem), to a client without a coding, and for HEAD', async () => {
    const problem = await get(`${server.url}/api/nothing`, { 'Accept-Encoding': 'br' });
    expect(problem.status).toBe(404);
    expect(problem.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(problem.body.toString()).code).toBe('not_found');
    for (const headers of [{}, { 'Accept-Encoding': 'identity' }] as Array<Record<string, string>>) {
      const page = await get(`${server.url}/quote`, headers);
      expect(page.headers['content-encoding']).toBeUndefined();
      expect(page.body.toString()).toMatch(/^<!DOCTYPE html>/);
      // Held until it ends and sent whole: framed by its length, not in chunks.
      expect(page.headers['transfer-encoding']).toBeUndefined();
      expect(Number(page.headers['content-length'])).toBe(page.body.length);
    }
    const head = await get(`${server.url}/api/v1`, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.body.length).toBe(0);
  });
});
