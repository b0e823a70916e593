/**
 * The `node:http` server in front of Astro: transport only. It gives each request an id and its
 * one log line, pins Host and the request target, serves the prerendered files from memory, and
 * hands everything else to Astro's handler (middleware mode), which runs the API's route files and
 * the on-demand pages. It answers by itself only what a web `Request` cannot carry (TRACE,
 * CONNECT) and what it cannot route (a bad percent-encoding), through the API's own functions.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { notFound, serveRoute } from '../http/api.ts';
import { clientAddress } from '../http/client-address.ts';
import type { ApiContext, RequestInfo } from '../http/context.ts';
import { findApiRoute, isApiPath } from '../http/routes.ts';
import type { SecurityHeaders } from '../http/security-headers.ts';
import { Problem, problemResponse } from '../problems/problem.ts';
import { MAX_BODY_BYTES } from '../service-info.ts';
import type { Services } from '../services.ts';
import { announcesBody, LINGER, lingerIfUnread } from './linger.ts';
import { requestLogger } from '../logger.ts';
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
 * request within 30 s, idle keep-alive sockets closed after 5 s, all checked every second.
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

/** Writes a web `Response` to a Node response. */
async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}

/** Creates the server; `listen` is the caller's. */
export function createAppServer(options: AppServerOptions): Server {
  const { services, astro, staticFiles, security } = options;
  const { config, logger } = services;
  const requestLog = requestLogger(logger);
  const siteHost = new URL(config.siteUrl).host;
  const notFoundPage = staticFiles.get('/404.html');

  function serveFile(req: IncomingMessage, res: ServerResponse, requestId: string, file: StaticFile, status = 200): void {
    if (status === 200 && req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, [...file.head304, 'X-Request-Id', requestId]).end();
      return;
    }
    res.writeHead(status, [...file.head200, 'X-Request-Id', requestId]).end(req.method === 'HEAD' ? undefined : file.body);
  }

  /** An answer the server makes itself under `/api/`: the API's security headers on the API's own response. */
  function answerApi(res: ServerResponse, response: Promise<Response>): void {
    setHeaders(res, security.api);
    response.then((r) => send(res, r)).catch((err: unknown) => {
      logger.error({ err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'answer failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  }

  // Sockets with an answer in progress: a parse error on one (a body longer than its
  // Content-Length, say) must not put Node's bare 400 in front of the answer being written.
  const answering = new WeakMap<object, ServerResponse>();

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const requestId = randomUUID();
    const socket = req.socket;
    answering.set(socket, res);
    if (announcesBody(req)) lingerIfUnread(req, res);
    // Astro builds its URL from Host and the target: both are pinned here, so that the path this
    // server routes by is the path Astro routes by (a crafted Host cannot move a request between them).
    if (!req.url?.startsWith('/')) {
      try {
        const target = new URL(req.url ?? '');
        req.url = `${target.pathname}${target.search}`;
      } catch {
        req.url = '/';
      }
    }
    req.headers.host = siteHost;
    const rawPath = req.url.split('?', 1)[0]!;
    res.once('close', () => {
      answering.delete(socket);
      const status = res.statusCode;
      const line = { reqId: requestId, method: req.method, path: rawPath, status, durationMs: Math.round((performance.now() - started) * 10) / 10 };
      if (status >= 500) requestLog.error(line, 'request');
      else requestLog.info(line, 'request');
    });

    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      res.setHeader('X-Request-Id', requestId);
      answerApi(res, Promise.resolve(problemResponse(new Problem('bad_request', 'The request path has an invalid percent-encoding.'), { siteUrl: config.siteUrl, requestId })));
      return;
    }

    // The hot path: a prerendered page or document, its whole header block written at once.
    const file = staticFiles.get(path);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) return serveFile(req, res, requestId, file);
    res.setHeader('X-Request-Id', requestId);
    // Built only for requests that reach Astro: static files do not need the client's address.
    const request: RequestInfo = { id: requestId, clientAddress: clientAddress(socket.remoteAddress, req.headers['x-forwarded-for'], config.trustProxy) };

    if (FORBIDDEN_METHODS.has(req.method ?? '')) {
      if (isApiPath(path)) {
        const ctx: ApiContext = { services, request };
        const route = findApiRoute(path);
        answerApi(res, route ? serveRoute(route, req.method!, undefined, ctx) : notFound(rawPath, ctx));
        return;
      }
      setHeaders(res, security.file);
      const allow = staticFiles.has(path) ? 'GET, HEAD' : undefined;
      res.writeHead(allow ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8', ...(allow && { Allow: allow }) }).end();
      return;
    }

    if (file) {
      setHeaders(res, security.file);
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    // Astro: the API's route files and the on-demand pages; what it does not route is a 404 page.
    astro(req, res, () => {
      if (notFoundPage) return serveFile(req, res, requestId, notFoundPage, 404);
      setHeaders(res, security.file);
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    }, { request }).catch((err: unknown) => {
      logger.error({ reqId: requestId, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'astro handler failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  };

  const server = createServer({ ...SERVER_TIMEOUTS }, onRequest);

  // `Expect: 100-continue`: invite the body only when it may be accepted, so that a client about to
  // send more than a lead may hold gets its 413 without uploading anything.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length'] ?? 0) <= MAX_BODY_BYTES) res.writeContinue();
    onRequest(req, res);
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const inProgress = answering.get(socket);
    if (inProgress) {
      // Let the answer in progress finish; the connection closes after it.
      inProgress.once('finish', () => socket.end());
      setTimeout(() => socket.destroy(), LINGER.ms).unref();
      return;
    }
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\nX-Content-Type-Options: nosniff\r\n\r\n`);
  });
  return server;
}
