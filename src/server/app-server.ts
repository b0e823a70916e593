/**
 * The HTTP server that owns every response: request id, security headers, one log line per request,
 * static files from memory, then Astro (in middleware mode) for the on-demand API routes, and
 * problem documents for anything under /api/ that Astro does not route.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { clientAddress } from '../http/client-address.ts';
import type { AppServices } from '../http/context.ts';
import { Problem, problemResponse } from '../problems/problem.ts';
import type { SecurityHeaders } from './security-headers.ts';
import type { StaticFile } from './static-files.ts';
import { MAX_BODY_BYTES } from '../http/read-body.ts';
import { requestLogger } from './logger.ts';

/** Astro's middleware-mode handler, as `dist/server/entry.mjs` exports it. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: object) => Promise<void>;

export interface AppServerOptions {
  services: AppServices;
  astro: AstroHandler;
  staticFiles: Map<string, StaticFile>;
  security: SecurityHeaders;
  /** The prerendered 404 page, when the site has one. */
  notFoundPage?: StaticFile;
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

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * Methods a web `Request` cannot carry (Astro would fail to build the request and answer 500), so
 * the server answers them itself. `Allow` lists what each API path supports; a test holds this
 * table to the route files' own answers.
 */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const API_ALLOW: Readonly<Record<string, string>> = {
  '/api/v1': 'GET, HEAD, OPTIONS',
  '/api/v1/leads': 'POST, OPTIONS',
  '/api/leads': 'POST, OPTIONS',
};

/** After an answer sent before the request body was read: how long, and how much more of it, is read and thrown away. */
const LINGER = { bytes: 64 * 1024 * 1024, ms: 5_000 } as const;

/**
 * Lingering close (RFC 9112, 9.6): closing a socket that still has unread upload data makes the
 * kernel send a reset, which can destroy our answer before the client reads it. So after an answer
 * sent before the body was read, the rest is read and discarded (memory stays flat) until the body
 * ends, 5 s pass or 64 MiB arrive. On a keep-alive connection Node then reuses the socket. When the
 * connection is to close (the client sent `Connection: close`), Node would close it at once through
 * `socket.destroySoon()`; for such a request that call half-closes instead, and the socket is
 * destroyed when the lingering ends.
 */
function lingerIfUnread(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  const destroySoon = socket.destroySoon;
  // Node calls this from its own 'finish' listener, before ours below runs.
  socket.destroySoon = function (this: Socket) {
    socket.destroySoon = destroySoon;
    if (req.complete) return destroySoon.call(this);
    this.end();
    req.once('close', () => this.destroy());
  };
  res.once('close', () => {
    socket.destroySoon = destroySoon;
  });
  res.once('finish', () => {
    if (req.complete) return;
    const close = () => socket.destroy();
    const timer = setTimeout(close, LINGER.ms);
    timer.unref();
    // Listeners go on the request, not on the socket, which keep-alive reuses for later requests.
    req.once('close', () => clearTimeout(timer));
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER.bytes) close();
    });
    // Destroying the socket mid-body makes the request emit 'aborted'/'error': expected here.
    req.on('error', () => {});
    req.resume();
  });
}

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
  const { services, astro, staticFiles, security, notFoundPage } = options;
  const { config, logger } = services;
  const requestLog = requestLogger(logger);
  const siteHost = new URL(config.siteUrl).host;

  const problem = (res: ServerResponse, requestId: string, p: Problem) =>
    send(res, problemResponse(p, { siteUrl: config.siteUrl, requestId }));

  // Each file's whole header block, flattened once: the static path sets no header one by one.
  const heads = new Map<StaticFile, { ok: string[]; notModified: string[] }>();
  const headsOf = (file: StaticFile) => {
    let head = heads.get(file);
    if (!head) {
      const flat = Object.entries({ ...(file.isHtml ? security.html : security.file), ...file.headers }).flat();
      head = { ok: [...flat, 'Content-Length', String(file.body.length)], notModified: flat };
      heads.set(file, head);
    }
    return head;
  };

  function serveFile(req: IncomingMessage, res: ServerResponse, requestId: string, file: StaticFile, status = 200): void {
    const head = headsOf(file);
    if (status === 200 && req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, [...head.notModified, 'X-Request-Id', requestId]).end();
      return;
    }
    res.writeHead(status, [...head.ok, 'X-Request-Id', requestId]).end(req.method === 'HEAD' ? undefined : file.body);
  }

  // Sockets with an answer in progress: a parse error on one (a body longer than its
  // Content-Length, say) must not put Node's bare 400 in front of the answer being written.
  const answering = new WeakMap<object, ServerResponse>();

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const requestId = randomUUID();
    const socket = req.socket;
    answering.set(socket, res);
    // Only a request that announces a body can leave one unread.
    if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') lingerIfUnread(req, res);
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
    // Built only for requests that reach Astro: static files do not need the client's address.
    const locals = () => ({ services, request: { id: requestId, clientAddress: clientAddress(socket.remoteAddress, req.headers['x-forwarded-for'], config.trustProxy) } });
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
      setHeaders(res, security.api);
      void problem(res, requestId, new Problem('bad_request', 'The request path has an invalid percent-encoding.'));
      return;
    }

    // The hot path: a prerendered page or document, its whole header block written at once.
    const file = staticFiles.get(path);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) return serveFile(req, res, requestId, file);
    res.setHeader('X-Request-Id', requestId);

    if (FORBIDDEN_METHODS.has(req.method ?? '')) {
      setHeaders(res, isApiPath(path) ? security.api : security.file);
      if (path.replace(/\/$/, '') === '/api/leads') setHeaders(res, services.aliasHeaders);
      const allow = isApiPath(path) ? API_ALLOW[path.replace(/\/$/, '')] : staticFiles.has(path) ? 'GET, HEAD' : undefined;
      if (!isApiPath(path)) {
        res.writeHead(allow ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8', ...(allow && { Allow: allow }) }).end();
        return;
      }
      void problem(res, requestId, allow
        ? new Problem('method_not_allowed', `${req.method} is not supported on this path.`, {}, { Allow: allow })
        : new Problem('not_found', `There is no API resource at ${rawPath}.`));
      return;
    }

    if (isApiPath(path)) {
      setHeaders(res, security.api);
      const notFound = () => void problem(res, requestId, new Problem('not_found', `There is no API resource at ${rawPath}.`));
      astro(req, res, notFound, locals()).catch((err: unknown) => {
        logger.error({ reqId: requestId, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'astro handler failed');
        if (!res.headersSent) void problem(res, requestId, new Problem('internal_error', 'An unexpected failure happened on the server.'));
      });
      return;
    }

    if (file) {
      setHeaders(res, security.file);
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    // No static file: let Astro try its on-demand pages, then answer 404 with the site's page.
    astro(req, res, () => {
      if (notFoundPage) return serveFile(req, res, requestId, notFoundPage, 404);
      setHeaders(res, security.file);
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    }, locals()).catch(() => {
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
