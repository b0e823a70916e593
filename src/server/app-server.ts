/**
 * The `node:http` server in front of Astro: transport only, composed of small parts. Each request
 * gets an id and its one log line, its Host pinned and its target normalised; then a prerendered
 * file is served from memory (`serve-static.ts`) and everything else goes to Astro's handler
 * (`serve-astro.ts`), which runs the API's route files and the on-demand pages, with a request body
 * the server controls (`request-body.ts`). The server answers by itself only what Astro cannot be
 * given: what the HTTP parser refuses (`client-errors.ts`), a target it cannot route, and methods
 * a web `Request` cannot carry (TRACE; CONNECT in `connect.ts`), through the API's own functions
 * and problem documents; and a submission from a client already refused in its window, with the
 * endpoint's own 429 (`refuse-at-edge.ts`). Every request is counted by the clean stop (`graceful-stop.ts`).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { notFound, serveRoute } from '../http/api.ts';
import { clientAddress } from '../http/client-address.ts';
import type { RequestInfo } from '../http/context.ts';
import { findApiRoute, isApiPath } from '../http/routes.ts';
import type { SecurityHeaders } from '../http/security-headers.ts';
import { Problem, problemResponse } from '../problems/problem.ts';
import { MAX_BODY_BYTES } from '../service-facts.ts';
import type { PublicServices } from '../roles/index.ts';
import { onClientError } from './client-errors.ts';
import { onConnect } from './connect.ts';
import { createFlights } from './requests-in-flight.ts';
import { gracefulStop, type StopOutcome } from './graceful-stop.ts';
import { respondOwn } from './own-responses.ts';
import { afterAnswer, announcesBody, RequestBody } from './request-body.ts';
import { createRequestLog } from './request-log.ts';
import { normaliseTarget } from './request-target.ts';
import { HeldResponse } from './held-response.ts';
import { refuseAtEdge } from './refuse-at-edge.ts';
import { handToAstro, type AstroHandler } from './serve-astro.ts';
import { refuseMethod, serveFile, setHeaders } from './serve-static.ts';
import type { StaticFile } from './static-files.ts';

export type { AstroHandler } from './serve-astro.ts';

export interface AppServerOptions {
  services: PublicServices;
  astro: AstroHandler;
  staticFiles: Map<string, StaticFile>;
  security: SecurityHeaders;
}

/** The server, and its clean stop (`graceful-stop.ts`). */
export interface AppServer {
  server: Server;
  /** Stops taking requests, finishes every one begun, and resolves once the last answer is out. */
  stop(): Promise<StopOutcome>;
}

/**
 * Timeouts chosen so that slow or idle clients cannot hold the server (Node's defaults are 60 s for
 * headers and 300 s for a request, checked only every 30 s): whole headers within 10 s, the whole
 * request within 30 s, idle keep-alive sockets closed after 5 s, all checked every second. A body
 * that stops arriving while it is read is answered 408 (`BODY_IDLE_TIMEOUT_SECONDS`).
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
  maxHeaderSize: 16 * 1024,
} as const;

/** Methods a web `Request` cannot carry: Astro would fail to build the request, so they are answered here. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Resolves once `res` can take more without buffering it (at once, unless a write was refused), or has closed. */
function drained(res: ServerResponse): Promise<void> {
  if (!res.writableNeedDrain || res.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Creates the server; `listen` is the caller's. */
export function createAppServer(options: AppServerOptions): AppServer {
  const { services, astro, staticFiles, security } = options;
  const { config, logger } = services;
  const requestLog = createRequestLog(logger);
  const flights = createFlights();
  const siteHost = new URL(config.siteUrl).host;
  const notFoundPage = staticFiles.get('/404.html');
  const toAstro = handToAstro({ astro, services, notFoundPage, security, logger });
  const refused = refuseAtEdge(services);

  /** Handles one request; the promise, when there is one, settles when its handler has. */
  const onRequest = (req: IncomingMessage, res: ServerResponse): Promise<void> | void => {
    const requestId = randomUUID();
    const rawTarget = req.url ?? '';
    const target = normaliseTarget(rawTarget);
    const notes = requestLog.follow(
      req,
      res,
      requestId,
      target?.path ?? rawTarget.split('?', 1)[0]!,
      target && target.target !== rawTarget ? rawTarget : undefined,
    );
    const body = announcesBody(req) ? new RequestBody(req) : undefined;
    if (body) afterAnswer(req, res, body);
    flights.take({ req, res, body, requestId, notes });
    // Astro builds its URL from Host and the target: both are pinned here, so that the path this
    // server routes by is the path Astro routes by (a crafted Host cannot move a request between them).
    const sentHost = req.headers.host;
    req.headers.host = siteHost;

    if (!target) {
      res.setHeader('X-Request-Id', requestId);
      const detail = 'The request target is not a path (or an absolute http URL) with a valid percent-encoding.';
      return respondOwn(
        res,
        security.api,
        Promise.resolve(problemResponse(new Problem('bad_request', detail), { siteUrl: config.siteUrl, requestId })),
        logger,
      );
    }
    req.url = target.target;
    const { path } = target;

    // The hot path: a prerendered page or document, its whole header block written at once.
    const file = staticFiles.get(path);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) return serveFile(req, res, requestId, file);
    res.setHeader('X-Request-Id', requestId);
    // Built only for requests that reach Astro: static files do not need the client's address.
    const request: RequestInfo = {
      id: requestId,
      clientAddress: clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], config.trustProxy),
      host: sentHost,
      drained: () => drained(res),
      logNotes: notes,
    };

    if (FORBIDDEN_METHODS.has(req.method ?? '')) {
      if (isApiPath(path)) {
        const ctx = { services, request };
        const route = findApiRoute(path);
        return respondOwn(res, security.api, route ? serveRoute(route, req.method!, undefined, ctx) : notFound(path, ctx), logger);
      }
      setHeaders(res, security.file);
      const allow = staticFiles.has(path) ? 'GET, HEAD' : undefined;
      res.writeHead(allow ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8', ...(allow && { Allow: allow }) }).end();
      return;
    }
    // Actions are only ever POSTed: the rest would get Astro's own 404 page, which names the
    // build's origin; ours is rendered for the running SITE_URL.
    if (notFoundPage && req.method !== 'POST' && path.startsWith('/_actions/')) return serveFile(req, res, requestId, notFoundPage, 404);
    if (file) return refuseMethod(res, security);
    // A client already refused in its window is refused again here, as the endpoint would, without Astro.
    return refused(req, res, request, target.target, body) ?? toAstro(req, res, request, body);
  };

  // Responses Astro writes are held and sent whole (`held-response.ts`).
  const server = createServer({ ...SERVER_TIMEOUTS, ServerResponse: HeldResponse });
  const lifecycle = gracefulStop(server);
  /** Every request is counted by the clean stop from its arrival until its handler has settled. */
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const handled = lifecycle.begin(res);
    const work = onRequest(req, res);
    if (work) void work.finally(handled);
    else handled();
  };
  server.on('request', handle);
  // `Expect: 100-continue`: invite the body only when it may be accepted, so that a client about to
  // send more than a lead may hold gets its 413 without uploading anything.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length'] ?? 0) <= MAX_BODY_BYTES) res.writeContinue();
    handle(req, res);
  });
  server.on('connect', onConnect({ services, security, requestLog }));
  server.on('clientError', onClientError({ siteUrl: config.siteUrl, security, requestLog, logger, flights }));
  return { server, stop: () => lifecycle.stop() };
}
