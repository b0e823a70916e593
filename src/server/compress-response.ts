/**
 * Compression of what Astro answers on demand (the web forms' pages, the office's pages and
 * exports, the API's larger answers), for a request that accepts a coding. Astro writes a response
 * as `writeHead(status, headers)`, then its chunks, then `end()`: those three calls are taken over
 * for this one response, the answer is held until it ends, and it is sent compressed when it is
 * text of at least `MIN_COMPRESSIBLE_BYTES` that the coding shrinks (Brotli at quality 5 costs
 * 25–35 µs for a page of 11 KB, which it brings to 2.7 KB). A 300-byte problem document is sent as
 * it is: compressed it would still take one packet, for the same CPU. An answer that grows past
 * `MAX_HELD_BYTES` is sent as it is, from there on as it comes.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { compressible, encode, negotiate, worthSending, type Coding } from './compression.ts';

/** What is held in memory to compress at once; longer answers (a large export) stream uncompressed. */
export const MAX_HELD_BYTES = 1024 * 1024;

type End = ServerResponse['end'];

/** Takes over `res`'s writing for this answer when `req` accepts a coding (GET, POST and the like; HEAD has no body). */
export function compressAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') return;
  const coding = negotiate(req.headers['accept-encoding']);
  if (!coding) return;
  const original = { writeHead: res.writeHead, write: res.write, end: res.end };
  const restore = () => Object.assign(res, original);
  let status = 0;
  let headers: OutgoingHttpHeaders | undefined;
  const chunks: Buffer[] = [];
  let held = 0;

  /** Sends what is held as it is, and lets the rest through. */
  const letThrough = () => {
    restore();
    res.writeHead(status, headers);
    for (const chunk of chunks) res.write(chunk);
  };

  res.writeHead = function (this: ServerResponse, code: number, ...rest: unknown[]) {
    const given = rest.at(-1);
    const type = given && typeof given === 'object' && !Array.isArray(given) ? (given as OutgoingHttpHeaders)['content-type'] : undefined;
    // Only Astro's own form, and only for text not encoded yet: anything else goes out untouched.
    if (
      rest.length !== 1 ||
      typeof type !== 'string' ||
      !compressible(type, Infinity) ||
      (given as OutgoingHttpHeaders)['content-encoding'] ||
      code < 200 ||
      code === 204 ||
      code === 304
    ) {
      restore();
      return res.writeHead(code, ...(rest as [OutgoingHttpHeaders]));
    }
    status = code;
    headers = { ...(given as OutgoingHttpHeaders), vary: withVary((given as OutgoingHttpHeaders).vary) };
    return this;
  } as ServerResponse['writeHead'];

  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (!headers) {
      restore();
      return res.write(chunk as Buffer, ...(rest as []));
    }
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    chunks.push(bytes);
    held += bytes.length;
    if (held > MAX_HELD_BYTES) letThrough();
    return true;
  } as ServerResponse['write'];

  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (!headers) {
      restore();
      return (res.end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
    }
    if (chunk !== undefined && typeof chunk !== 'function') chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
    restore();
    const body = Buffer.concat(chunks);
    const encoded = compressible(String(headers['content-type']), body.length) ? encode(body, coding, 'fast') : undefined;
    if (encoded && worthSending(body, encoded)) return sendWhole(res, status, headers, encoded, coding);
    return sendWhole(res, status, headers, body);
  } as End;
}

function sendWhole(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: Buffer, coding?: Coding): ServerResponse {
  const { 'content-length': _length, ...rest } = headers;
  res.writeHead(status, { ...rest, ...(coding && { 'content-encoding': coding }), 'content-length': body.length });
  return res.end(body);
}

/** A `Vary` value that names Accept-Encoding, keeping what it named. */
function withVary(vary: OutgoingHttpHeaders['vary']): string {
  const names =
    vary === undefined
      ? []
      : String(vary)
          .split(',')
          .map((v) => v.trim());
  return names.some((n) => n.toLowerCase() === 'accept-encoding' || n === '*') ? names.join(', ') : [...names.filter(Boolean), 'Accept-Encoding'].join(', ');
}
