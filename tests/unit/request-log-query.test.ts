/**
 * The request log never holds a query string: the server's one line per request (its `path`, and
 * its `target` when the target was written unusually) is cut before the `?`, however the path is
 * spelt. In process: the server's own transport (`createAppServer`) on a loopback port, Astro's
 * handler replaced by a stand-in, and the composition's logger read by the test.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../src/http/security-headers.ts';
import { createAppServer, type AppServer } from '../../src/server/app-server.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { exchange } from '../support/raw-http.ts';

/** Targets as clients write them, each with a query that names a customer. */
const TARGETS = [
  '/office?q=janelle',
  '//office?q=janelle',
  '/office//?q=janelle',
  '/./office?q=janelle',
  '/x/../office?q=janelle',
  '/%6Fffice?q=janelle',
  '/office\\spam?q=janelle',
  'http://localhost:4321/office?q=janelle',
  '//office?',
  '/office%zz?q=janelle',
  '/api/v1?q=janelle',
];

describe('the request log', () => {
  let app: TestApp;
  let server: AppServer;
  let port: number;
  beforeAll(async () => {
    app = await testApp();
    server = createAppServer({
      services: app.services,
      // What Astro would answer does not matter here: the line is the transport's.
      astro: async (_req, res) => void res.writeHead(303, { Location: '/office/sign-in' }).end(),
      staticFiles: new Map(),
      security: securityHeaders(app.services.config),
    });
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await server?.stop();
    await app?.dispose();
  });

  const linesOf = (logged: string) =>
    logged
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request');

  it.each(TARGETS)('logs %s without its query, in the path and in the target', async (target) => {
    const before = app.logged().length;
    await exchange(port, `GET ${target} HTTP/1.1\r\nHost: localhost:4321\r\nConnection: close\r\n\r\n`);
    await expect.poll(() => linesOf(app.logged().slice(before)).length).toBe(1);
    const [line] = linesOf(app.logged().slice(before));
    expect(line!.path).toEqual(expect.stringMatching(/^\/[^?]*$/));
    if (line!.target !== undefined) expect(line!.target).toEqual(expect.not.stringContaining('?'));
    expect(app.logged().slice(before)).not.toMatch(/janelle|q=/);
  });

  it('keeps the target as sent, without its query, when it was written unusually', async () => {
    const before = app.logged().length;
    await exchange(port, `GET //office?q=x HTTP/1.1\r\nHost: localhost:4321\r\nConnection: close\r\n\r\n`);
    await expect.poll(() => linesOf(app.logged().slice(before)).length).toBe(1);
    expect(linesOf(app.logged().slice(before))[0]).toMatchObject({ method: 'GET', path: '/office', target: '//office', status: 303 });
  });
});
