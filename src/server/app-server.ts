/**
 * The `node:http` server in front of Astro: transport only. It gives each request an id and its
 * one log line, pins Host and normalises the request target, serves the prerendered files from
 * memory, and hands everything else to Astro's handler (middleware mode), which runs the API's
 * route files and the on-demand pages, with a request body it controls (`request-body.ts`). It
 * answers by itself only what Astro cannot be given: what the HTTP parser refuses, a target it
 * cannot route, and methods a web `Request` cannot carry (TRACE, CONNECT), through the API's own
 * functions and problem documents.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { notFound, serveRoute } from '../http/api.ts';
import { clientAddress } from '../http/client-address.ts';
import type { ApiContext, RequestInfo } from '../http/context.ts';
import { RequestBodyError } from '../http/read-body.ts';
import { findApiRoute, isApiPath } from '../http/routes.ts';
import type { SecurityHeaders } from '../http/security-headers.ts';
import { Problem, problemResponse } from '../problems/problem.ts';
import { PROBLEMS } from '../problems/registry.ts';
import { MAX_BODY_BYTES } from '../service-info.ts';
import type { Services } from '../services.ts';
import { send, sendRaw, transportProblem, transportProblemResponse } from './own-answers.ts';
import { afterAnswer, announcesBody, LINGER, RequestBody } from './request-body.ts';
import { createRequestLog, type RequestNotes } from './request-log.ts';
import { gracefulStop, type StopOutcome } from './graceful-stop.ts';
import { normaliseTarget } from './request-target.ts';
import type { StaticFile } from './static-files.ts';

/** Astro's middleware-mode handler, as `@astrojs/node/server.js` exports it. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: object) => Promise<void>;

export interface AppServerOptions {
  services: Services;
  astro: AstroHandler;
  staticFiles: Map<string, StaticFile>;
  security: SecurityHeaders;
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

/** How long a request whose framing broke may take to answer before the server answers for it. */
const FRAMING_ANSWER_GRACE_MS = 2_000;

/** Methods a web `Request` cannot carry: Astro would fail to build the request, so they are answered here. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** A request on its way: what a parser error on its connection must reach. */
interface Flight {
  req: IncomingMessage;
  res: ServerResponse;
  body: RequestBody | undefined;
  requestId: string;
  notes: RequestNotes;
}

/** The server, and its clean stop (`graceful-stop.ts`). */
export interface AppServer {
  server: Server;
  /** Stops taking requests, finishes every one begun, and resolves once the last answer is out. */
  stop(): Promise<StopOutcome>;
}

function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}

/** Creates the server; `listen` is the caller's. */
export function createAppServer(options: AppServerOptions): AppServer {
  const { services, astro, staticFiles, security } = options;
  const { config, logger } = services;
  const requestLog = createRequestLog(logger);
  const siteHost = new URL(config.siteUrl).host;
  const notFoundPage = staticFiles.get('/404.html');
  const flights = new WeakMap<Socket, Flight>();

  function serveFile(req: IncomingMessage, res: ServerResponse, requestId: string, file: StaticFile, status = 200): void {
    if (status === 200 && req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, [...file.head304, 'X-Request-Id', requestId]).end();
      return;
    }
    res.writeHead(status, [...file.head200, 'X-Request-Id', requestId]).end(req.method === 'HEAD' ? undefined : file.body);
  }

  /** An answer the server makes itself under `/api/`: the API's security headers on the API's own response. */
  function answerApi(res: ServerResponse, response: Promise<Response>): Promise<void> {
    setHeaders(res, security.api);
    return response.then((r) => send(res, r)).catch((err: unknown) => {
      logger.error({ err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'answer failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  }

  /** Handles one request; the promise, when there is one, settles when its handler has. */
  const onRequest = (req: IncomingMessage, res: ServerResponse): Promise<void> | void => {
    const requestId = randomUUID();
    const socket = req.socket;
    const rawTarget = req.url ?? '';
    const target = normaliseTarget(rawTarget);
    const notes = requestLog.follow(req, res, requestId, target?.path ?? rawTarget.split('?', 1)[0]!, target && target.target !== rawTarget ? rawTarget : undefined);
    const body = announcesBody(req) ? new RequestBody(req) : undefined;
    if (body) afterAnswer(req, res, body);
    // The flight lasts until its answer is sent and its body read: a parse error on the rest of an
    // answered body must close the connection, not answer a second time.
    flights.set(socket, { req, res, body, requestId, notes });
    const land = () => {
      if (flights.get(socket)?.res === res) flights.delete(socket);
    };
    res.once('close', () => (req.complete ? land() : req.once('end', land)));
    // Astro builds its URL from Host and the target: both are pinned here, so that the path this
    // server routes by is the path Astro routes by (a crafted Host cannot move a request between them).
    const sentHost = req.headers.host;
    req.headers.host = siteHost;

    if (!target) {
      res.setHeader('X-Request-Id', requestId);
      const detail = 'The request target is not a path (or an absolute http URL) with a valid percent-encoding.';
      return answerApi(res, Promise.resolve(problemResponse(new Problem('bad_request', detail), { siteUrl: config.siteUrl, requestId })));
    }
    req.url = target.target;
    const { path } = target;

    // The hot path: a prerendered page or document, its whole header block written at once.
    const file = staticFiles.get(path);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) return serveFile(req, res, requestId, file);
    res.setHeader('X-Request-Id', requestId);
    // Built only for requests that reach Astro: static files do not need the client's address.
    const request: RequestInfo = { id: requestId, clientAddress: clientAddress(socket.remoteAddress, req.headers['x-forwarded-for'], config.trustProxy), host: sentHost };

    if (FORBIDDEN_METHODS.has(req.method ?? '')) {
      if (isApiPath(path)) {
        const ctx: ApiContext = { services, request };
        const route = findApiRoute(path);
        return answerApi(res, route ? serveRoute(route, req.method!, undefined, ctx) : notFound(path, ctx));
      }
      setHeaders(res, security.file);
      const allow = staticFiles.has(path) ? 'GET, HEAD' : undefined;
      res.writeHead(allow ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8', ...(allow && { Allow: allow }) }).end();
      return;
    }

    // Actions are only ever POSTed: the rest would get Astro's own 404 page, which names the
    // build's origin; ours is rendered for the running SITE_URL.
    if (notFoundPage && req.method !== 'POST' && path.startsWith('/_actions/')) return serveFile(req, res, requestId, notFoundPage, 404);
    if (file) {
      setHeaders(res, security.file);
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    // Astro: the API's route files and the on-demand pages; what it does not route is a 404 page.
    const toAstro = (content: RequestBody | Buffer | undefined) => {
      // The adapter reads `req.body` in place of the request stream when it is set.
      if (content) Object.assign(req, { body: content });
      return astro(req, res, () => {
        if (notFoundPage) return serveFile(req, res, requestId, notFoundPage, 404);
        setHeaders(res, security.file);
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      }, { request }).catch((err: unknown) => {
        logger.error({ reqId: requestId, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'astro handler failed');
        if (!res.headersSent) res.writeHead(500).end();
      });
    };
    // A body of announced length within the limit goes to Astro as bytes; a chunked or larger one
    // as a source the route reads (and refuses past the limit without reading it all).
    if (body && req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length']) <= MAX_BODY_BYTES) {
      return body.whole().then((bytes) => toAstro(bytes ?? body));
    }
    return toAstro(body);
  };

  const server = createServer({ ...SERVER_TIMEOUTS });
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

  // CONNECT arrives here, not as a request: this server is no proxy. The API's route table answers
  // it on its paths (405 with Allow), anything else gets a 400 problem; the connection then closes.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const requestId = randomUUID();
    socket.on('error', () => {});
    const target = normaliseTarget(req.url ?? '');
    const route = target && isApiPath(target.path) ? findApiRoute(target.path) : undefined;
    const request: RequestInfo = { id: requestId, clientAddress: clientAddress(socket.remoteAddress, req.headers['x-forwarded-for'], config.trustProxy), host: req.headers.host };
    const response = route
      ? serveRoute(route, 'CONNECT', undefined, { services, request })
      : Promise.resolve(transportProblemResponse({ code: 'bad_request', detail: 'CONNECT is not supported: this server is not a proxy.' }, config.siteUrl, requestId));
    void response.then((r) => {
      requestLog.refused(requestId, r.status, 'CONNECT');
      return sendRaw(socket, r, { ...security.api, 'X-Request-Id': requestId });
    }).catch(() => socket.destroy());
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const problem = transportProblem(err);
    const flight = flights.get(socket);
    if (flight) {
      // The parser gave up on this request's bytes: its body ends with the problem, which the route
      // reading it answers (400, or 408); the connection closes after that answer.
      const { req, res, body } = flight;
      flight.notes.error = err.code;
      // The end of the client's side in the middle of a request: it hung up.
      if (err.code === 'HPE_INVALID_EOF_STATE') flight.notes.clientGone = true;
      res.shouldKeepAlive = false;
      if (!req.complete) body?.fail(new RequestBodyError(problem.code === 'request_timeout' ? 'request_timeout' : 'bad_request', problem.detail));
      if (res.writableFinished) return void socket.destroy();
      // A route that is not reading the body, or an answer already under way: do not wait forever.
      const timer = setTimeout(() => {
        if (!res.headersSent) answerApi(res, Promise.resolve(transportProblemResponse(problem, config.siteUrl, flight.requestId)));
        else socket.destroy();
      }, FRAMING_ANSWER_GRACE_MS);
      timer.unref();
      res.once('close', () => clearTimeout(timer));
      setTimeout(() => socket.destroy(), FRAMING_ANSWER_GRACE_MS + LINGER.ms).unref();
      return;
    }
    const requestId = randomUUID();
    if (err.code === 'ECONNRESET' || !socket.writable) {
      requestLog.refused(requestId, null, err.code);
      return void socket.destroy();
    }
    requestLog.refused(requestId, PROBLEMS[problem.code].status, err.code);
    void sendRaw(socket, transportProblemResponse(problem, config.siteUrl, requestId), { ...security.api, 'X-Request-Id': requestId });
  });
  return { server, stop: () => lifecycle.stop() };
}
