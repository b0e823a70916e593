/**
 * How what Astro answers on demand goes on the wire. Astro writes a response as
 * `writeHead(status, headers)`, then each chunk of its body, then `end()`: chunked framing, and
 * two writes to the socket at least. A held response takes those three calls over: the answer is
 * kept until it ends, then sent whole with its Content-Length in one write, and compressed (Brotli
 * at quality 5, or gzip) when the client accepts a coding and it is text of at least
 * `MIN_COMPRESSIBLE_BYTES` that the coding shrinks. Brotli costs 25–35 µs for a page of 11 KB,
 * which it brings to 2.7 KB; a 300-byte problem document is sent as it is (compressed it would
 * still take one packet, for the same CPU). An answer that grows past `MAX_HELD_BYTES` (a large
 * export) goes out as it is, from there on as it comes; so does anything written otherwise than
 * Astro writes (headers as an array, a write with a callback, as Astro's error path does).
 *
 * A class of the server's responses (`createServer`'s `ServerResponse` option), not methods put on
 * each response: every response keeps one shape, which Node's own code is optimised for.
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { compressible, encode, negotiate, worthSending } from '../lib/compression.ts';

/** What is held in memory to send at once; longer answers stream, uncompressed. */
export const MAX_HELD_BYTES = 1024 * 1024;

/** The chunks of a response that is not held: none, shared. */
const EMPTY: Buffer[] = [];

export class HeldResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** 0: not held; 1: held, before `writeHead`; 2: held, headers taken. */
  #state = 0;
  #status = 0;
  #headers: OutgoingHttpHeaders = {};
  #chunks: Buffer[] = EMPTY;
  #held = 0;

  /** Holds this answer until it ends (not for HEAD, which has no body to hold). */
  hold(): void {
    if (this.req.method === 'HEAD') return;
    this.#state = 1;
    this.#chunks = [];
  }

  override writeHead(code: number, ...rest: unknown[]): this {
    if (this.#state === 1) {
      const given = rest[0] as OutgoingHttpHeaders | undefined;
      // Astro's own form only, and not an answer without a body or already encoded.
      if (rest.length <= 1 && !Array.isArray(given) && code >= 200 && code !== 204 && code !== 304 && given?.['content-encoding'] === undefined) {
        this.#state = 2;
        this.#status = code;
        this.#headers = given ?? {};
        return this;
      }
      this.#state = 0;
    }
    return (super.writeHead as (...args: unknown[]) => this)(code, ...rest);
  }

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    if (this.#state === 2) {
      if (rest.length === 0) {
        const bytes = toBuffer(chunk);
        this.#chunks.push(bytes);
        this.#held += bytes.length;
        if (this.#held > MAX_HELD_BYTES) this.#letThrough();
        return true;
      }
      this.#letThrough();
    }
    this.#state = 0;
    return (super.write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }

  override end(chunk?: unknown, ...rest: unknown[]): this {
    if (this.#state !== 2) {
      this.#state = 0;
      return (super.end as (...args: unknown[]) => this)(chunk, ...rest);
    }
    this.#state = 0;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.#chunks.push(toBuffer(chunk));
    const chunks = this.#chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const { 'content-length': _length, 'transfer-encoding': _framing, ...head } = this.#headers;
    const type = head['content-type'];
    if (typeof type === 'string' && compressible(type, body.length)) {
      // Whether or not this client takes a coding, the answer depends on what it accepts.
      head.vary = withVary(head.vary);
      const coding = negotiate(this.req.headers['accept-encoding']);
      const encoded = coding && encode(body, coding, 'fast');
      if (encoded && worthSending(body, encoded)) {
        super.writeHead(this.#status, { ...head, 'content-encoding': coding, 'content-length': encoded.length });
        return super.end(encoded);
      }
    }
    head['content-length'] = body.length;
    super.writeHead(this.#status, head);
    return super.end(body);
  }

  /** Sends what is held as it is, and lets the rest through. */
  #letThrough(): void {
    this.#state = 0;
    super.writeHead(this.#status, this.#headers);
    for (const chunk of this.#chunks) super.write(chunk);
    this.#chunks = EMPTY;
  }
}

/** A chunk as a Buffer: a view of the bytes Astro's stream handed over, never a copy. */
function toBuffer(chunk: unknown): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (Buffer.isBuffer(chunk)) return chunk;
  const bytes = chunk as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A `Vary` value that names Accept-Encoding, keeping what it named. */
function withVary(vary: OutgoingHttpHeaders['vary']): string {
  if (vary === undefined) return 'Accept-Encoding';
  const names = String(vary)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return names.some((n) => n.toLowerCase() === 'accept-encoding' || n === '*') ? names.join(', ') : [...names, 'Accept-Encoding'].join(', ');
}
