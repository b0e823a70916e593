/**
 * Serving the prerendered files held in memory (`static-files.ts`): the hot path, each answer's
 * whole header block written at once, and what a file answers to a method it does not serve.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SecurityHeaders } from '../http/security-headers.ts';
import { negotiate } from '../lib/compression.ts';
import type { StaticFile } from './static-files.ts';

/**
 * Sends `file` (with `status`, 200 unless said) in the coding the request accepts, or a 304 when
 * the client holds that representation's ETag.
 */
export function serveFile(req: IncomingMessage, res: ServerResponse, requestId: string, file: StaticFile, status = 200): void {
  const coding = file.codings && negotiate(req.headers['accept-encoding']);
  const chosen = (coding && file.codings![coding]) || file;
  if (status === 200 && holds(req.headers['if-none-match'], chosen.etag)) {
    res.writeHead(304, [...chosen.head304, 'X-Request-Id', requestId]).end();
    return;
  }
  res.writeHead(status, [...chosen.head200, 'X-Request-Id', requestId]).end(req.method === 'HEAD' ? undefined : chosen.body);
}

/** Whether `If-None-Match` names `etag` (RFC 9110, 13.1.2: a list, weak comparison, or `*`). */
function holds(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  // Our ETags are quoted hashes: one found in the list, bare or after `W/`, is a match.
  return ifNoneMatch === etag || ifNoneMatch.includes(etag) || ifNoneMatch.trim() === '*';
}

/** A file asked for with a method other than GET or HEAD: 405 with `Allow`. */
export function refuseMethod(res: ServerResponse, security: SecurityHeaders): void {
  setHeaders(res, security.file);
  res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
}

/** Sets every header of `headers` on `res`. */
export function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}
