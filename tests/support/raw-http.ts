/**
 * HTTP/1.1 on a raw socket, for what no client library sends: broken framing, stalled bodies,
 * odd request lines. `exchange` writes bytes as given and collects everything the server sends
 * until it closes the connection; `parseResponses` checks that those bytes are well-formed responses.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Exchange {
  /** Every response the server sent, parsed; `malformed` says why the bytes were not well formed. */
  responses: RawResponse[];
  malformed?: string;
  /** Milliseconds from the first byte sent to the first byte answered, and to the close. */
  firstByteMs: number | undefined;
  closedMs: number | undefined;
  /** How the connection ended: closed by the server, reset, or still open when `waitMs` ran out. */
  ended: 'closed' | 'reset' | 'open';
  /** How many of `more` were written before the connection ended. */
  written: number;
  raw: Buffer;
}

export interface ExchangeOptions {
  /** Give up (and report `open`) after this long. */
  waitMs?: number;
  /** Written after the first part, one by one, `pauseMs` apart (unless the server has closed). */
  more?: Buffer[];
  pauseMs?: number;
  /** Called with the socket once the first part is written (to end or destroy it). */
  then?: (socket: Socket) => void;
  /** Keep writing `more` after the server has closed its side (as a client still uploading does). */
  halfOpen?: boolean;
  /** The request was HEAD: its answers have no body whatever their Content-Length. */
  head?: boolean;
}

/** Sends `first` (and `more`) to `port` and reads until the server closes the connection. */
export function exchange(port: number, first: Buffer | string, options: ExchangeOptions = {}): Promise<Exchange> {
  const { waitMs = 120_000, more = [], pauseMs = 10 } = options;
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let firstByteMs: number | undefined;
    let done = false;
    let written = 0;
    let uploading = more.length > 0;
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: options.halfOpen === true });
    const finish = (ended: Exchange['ended']) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      // An answer to HEAD has no body, unless the parser refused the request before knowing it was HEAD.
      let parsed = parseResponses(raw, options.head);
      if (options.head && parsed.malformed) parsed = parseResponses(raw);
      resolve({ ...parsed, firstByteMs, closedMs: ended === 'open' ? undefined : performance.now() - started, ended, written, raw });
    };
    const timer = setTimeout(() => finish('open'), waitMs);
    socket.on('data', (chunk) => {
      firstByteMs ??= performance.now() - started;
      chunks.push(chunk);
    });
    socket.on('end', () => {
      if (!(options.halfOpen && uploading)) finish('closed');
    });
    socket.on('close', () => finish('closed'));
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNRESET' ? 'reset' : 'closed'));
    socket.on('connect', async () => {
      socket.write(first);
      options.then?.(socket);
      for (const part of more) {
        await new Promise((r) => setTimeout(r, pauseMs));
        if (done || socket.destroyed || !socket.writable) break;
        socket.write(part);
        written++;
      }
      uploading = false;
      if (options.halfOpen && !done) socket.end();
    });
  });
}

/** Parses the bytes of zero or more HTTP/1.1 responses (Content-Length, chunked or none; none at all to HEAD). */
export function parseResponses(raw: Buffer, head = false): { responses: RawResponse[]; malformed?: string } {
  const responses: RawResponse[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) return { responses, malformed: `an incomplete head: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}` };
    const [statusLine, ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/.exec(statusLine!);
    if (!match) return { responses, malformed: `a bad status line: ${JSON.stringify(statusLine)}` };
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) return { responses, malformed: `a bad header line: ${JSON.stringify(line)}` };
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.subarray(headEnd + 4);
    const status = Number(match[1]);
    let body: Buffer = Buffer.alloc(0);
    if ((head && status >= 200) || status === 204 || status === 304) {
      // No body.
    } else if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        if (lineEnd < 0) return { responses, malformed: 'an unfinished chunked body' };
        const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) return { responses, malformed: 'a bad chunk size' };
        rest = rest.subarray(lineEnd + 2);
        if (size === 0) {
          rest = rest.subarray(rest.indexOf('\r\n') + 2);
          break;
        }
        parts.push(rest.subarray(0, size));
        rest = rest.subarray(size + 2);
      }
      body = Buffer.concat(parts);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (rest.length < length) return { responses, malformed: `a body shorter than its Content-Length (${rest.length} < ${length})` };
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    } else if (status !== 204 && status !== 304 && !(status >= 100 && status < 200)) {
      body = rest;
      rest = Buffer.alloc(0);
    }
    responses.push({ status, headers, body: body.toString('utf8') });
  }
  return { responses };
}

/** The log lines of a server that mention a request id. */
export function logLinesOf(logs: string[], requestId: string): Array<Record<string, unknown>> {
  return logs.filter((l) => l.includes(requestId)).map((l) => JSON.parse(l));
}
