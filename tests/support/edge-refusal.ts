/**
 * What the suites of refusals at the serving edge (docs/decisions/0032) use: the server's own
 * transport in process, in front of a stand-in for Astro's handler that counts what it is handed;
 * and what they compare, a 429 answered at the edge and one answered by the endpoint through Astro,
 * as they came off the wire.
 */
import type { AddressInfo } from 'node:net';
import { NodeApp } from 'astro/app/node';
import { expect } from 'vitest';
import { notFound, serveRoute } from '../../src/http/api.ts';
import type { ApiContext } from '../../src/http/context.ts';
import { answerOnDemand } from '../../src/http/front-door.ts';
import { findApiRoute, isApiPath } from '../../src/http/routes.ts';
import { securityHeaders } from '../../src/http/security-headers.ts';
import { createAppServer, type AstroHandler } from '../../src/server/app-server.ts';
import type { TestApp } from './app.ts';
import { rawRequest } from './http.ts';

/** The server's transport in process, on a loopback port: how many requests it handed to Astro. */
export interface EdgeServer {
  port: number;
  astroCalls(): number;
  /** Sends a POST with `body` (its Content-Length given), read whole. */
  post(path: string, headers: Record<string, string>, body: string): Promise<WireReply>;
  stop(): Promise<void>;
}

/**
 * Starts `createAppServer` for `app`'s services, with a stand-in for Astro's handler that does what
 * the adapter does for an on-demand route (Astro's own `createRequest` and `writeResponse`, the
 * middleware's front door, the API's route table; a page would be a bare 200, and is never reached
 * by a refused form, which its guard answers).
 */
export async function edgeServer(app: TestApp): Promise<EdgeServer> {
  let calls = 0;
  const astro: AstroHandler = async (req, res, _next, locals) => {
    calls++;
    const request = NodeApp.createRequest(req);
    const url = new URL(request.url);
    const ctx = locals as ApiContext;
    const route = findApiRoute(url.pathname);
    const page = () =>
      route ? serveRoute(route, request.method, request, ctx) : isApiPath(url.pathname) ? notFound(url.pathname, ctx) : Promise.resolve(new Response('a page'));
    await NodeApp.writeResponse(await answerOnDemand(request, url, ctx, app.composition.office, page, { requestIdSent: true }), res);
  };
  const server = createAppServer({ services: app.services, astro, staticFiles: new Map(), security: securityHeaders(app.services.config) });
  await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    astroCalls: () => calls,
    post: (path, headers, body) =>
      rawRequest(`http://127.0.0.1:${port}${path}`, { headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, chunks: [Buffer.from(body)] }),
    stop: async () => void (await server.stop()),
  };
}

/** A reply as node:http reads it (lower-case header names). */
export interface WireReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The seconds an answer says its window resets in, in its headers and its words: they must agree. */
function secondsSaid(reply: WireReply): number {
  const reset = Number(reply.headers['ratelimit-reset']);
  expect(reply.headers['retry-after']).toBe(String(reset));
  const words = reply.headers['content-type'] === 'application/problem+json' ? (JSON.parse(reply.body) as { detail: string }).detail : reply.body;
  const said = /(\d+) seconds?/.exec(words);
  expect(Number(said?.[1])).toBe(reset);
  return reset;
}

/**
 * A reply with what differs between two answers of the same refusal taken out: its request id (in
 * `X-Request-Id` and the problem's `instance`, which must agree) and `Date`; and, unless the clock
 * was held still, the seconds of its window (in `Retry-After`, `RateLimit-Reset` and the words,
 * which must agree) and the length they make.
 */
export function refusalShape(reply: WireReply, clockHeldStill: boolean): { status: number; headers: Record<string, unknown>; body: unknown } {
  const { 'x-request-id': id, date: _date, ...headers } = reply.headers;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  let body: unknown = reply.body;
  if (reply.headers['content-type'] === 'application/problem+json') {
    const { instance, ...rest } = JSON.parse(reply.body) as Record<string, unknown>;
    expect(instance).toBe(`urn:uuid:${id as string}`);
    body = rest;
  }
  const seconds = secondsSaid(reply);
  if (clockHeldStill) return { status: reply.status, headers, body };
  const { 'retry-after': _retry, 'ratelimit-reset': _reset, 'content-length': length, ...rest } = headers;
  expect(Number(length)).toBe(Buffer.byteLength(reply.body));
  const unsaid = (text: string) => text.replace(new RegExp(`\\b${seconds} seconds?\\b`, 'g'), 'N seconds');
  if (typeof body === 'string') return { status: reply.status, headers: rest, body: unsaid(body) };
  const problem = body as Record<string, string>;
  return { status: reply.status, headers: rest, body: { ...problem, detail: unsaid(problem.detail!), error: unsaid(problem.error!) } };
}

/** Expects `edge` to be the answer `endpoint` was, but for what two answers of one refusal may differ in (`refusalShape`). */
export function expectSameRefusal(endpoint: WireReply, edge: WireReply, clockHeldStill: boolean): void {
  expect(endpoint.status).toBe(429);
  expect(refusalShape(edge, clockHeldStill)).toEqual(refusalShape(endpoint, clockHeldStill));
}

/** The request's one log line without what differs between two requests (its id, its duration). */
export function logLineShape(line: Record<string, unknown>): Record<string, unknown> {
  const { reqId: _id, durationMs, time: _time, ...rest } = line;
  expect(typeof durationMs).toBe('number');
  return rest;
}
