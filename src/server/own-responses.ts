/**
 * The answers our server makes itself, outside Astro: problem documents for what the HTTP parser
 * refuses (framing, a header block too large, a request too slow), written on a `ServerResponse`
 * or, when there is none, on the raw socket, always well formed and then closed.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { HeaderSet } from '../http/security-headers.ts';
import { Problem, problemResponse } from '../problems/problem.ts';
import { setHeaders } from './serve-static.ts';

/** Writes a web `Response` to a Node response. */
export async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (res.headersSent || res.destroyed) return;
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.end(body);
}

/**
 * An answer the server makes itself on a request it has a `ServerResponse` for (under `/api/`, or
 * for what the parser refused mid-request): `headers` (the API's security headers) on the response
 * to come; a response that cannot be made is a bare 500, logged.
 */
export function respondOwn(res: ServerResponse, headers: HeaderSet, response: Promise<Response>, logger: Logger): Promise<void> {
  setHeaders(res, headers);
  return response
    .then((r) => send(res, r))
    .catch((err: unknown) => {
      logger.error({ err }, 'answer failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
}

/** Writes a whole web `Response` on a socket that has no `ServerResponse`, and closes the connection. */
export async function sendRaw(socket: Socket, response: Response, extraHeaders: Readonly<Record<string, string>> = {}): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  if (!socket.writable) return void socket.destroy();
  const headers = new Headers(response.headers);
  for (const name in extraHeaders) headers.set(name, extraHeaders[name]!);
  headers.set('Content-Length', String(body.length));
  headers.set('Connection', 'close');
  const head = [
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Unknown'}`,
    ...[...headers].map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

/** A problem the transport found, with the parser's error it came from. */
export interface TransportProblem {
  code: 'bad_request' | 'request_timeout' | 'request_header_fields_too_large';
  detail: string;
}

/** What an HTTP parser or socket error means to the client, in words. */
export function transportProblem(err: NodeJS.ErrnoException): TransportProblem {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'request_header_fields_too_large', detail: 'The request line and headers are larger than the server accepts.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', detail: 'The request was not received completely within the time the server waits for one.' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { code: 'bad_request', detail: "The request's Transfer-Encoding is not supported: it must be chunked, and nothing else." };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { code: 'bad_request', detail: 'The request carries both Content-Length and Transfer-Encoding; send one of them.' };
    case 'HPE_INVALID_CONTENT_LENGTH':
      return { code: 'bad_request', detail: "The request's Content-Length is not a valid length." };
    case 'HPE_INVALID_EOF_STATE':
      return { code: 'bad_request', detail: 'The request body was not received completely: the client closed its side of the connection.' };
    case 'HPE_INVALID_CHUNK_SIZE':
      return { code: 'bad_request', detail: 'The chunked request body has an invalid chunk size.' };
    case 'HPE_STRICT':
    case 'HPE_CR_EXPECTED':
    case 'HPE_LF_EXPECTED':
      return { code: 'bad_request', detail: "The request's line endings or chunk framing are malformed." };
    case 'HPE_INVALID_METHOD':
      return { code: 'bad_request', detail: 'The request method is not a method this server knows.' };
    default:
      return { code: 'bad_request', detail: `The request is not valid HTTP/1.1 (${err.code ?? 'unreadable'}).` };
  }
}

/** The problem response of a transport problem, for `siteUrl`, with request id `requestId`. */
export function transportProblemResponse(problem: TransportProblem, siteUrl: string, requestId: string): Response {
  return problemResponse(new Problem(problem.code, problem.detail), { siteUrl, requestId });
}
