/**
 * A request body as our server hands it to Astro (`req.body`, which the adapter reads in place of
 * the request stream), and what becomes of its unread rest once the answer is sent.
 *
 * Why not let the adapter iterate the request itself: a Node stream iterated by `for await` is
 * destroyed when the iteration stops early (a 413 at 20,000 bytes) or fails, and destroying an
 * incomplete request destroys its socket: the client is reset before it reads the answer, and a
 * keep-alive client's next request is lost. This source stops without destroying anything, so the
 * server decides: drain the rest and keep the connection, or answer `Connection: close` and close
 * gracefully. It also turns what only the transport sees (a framing error, a body that stops
 * arriving) into an error the route answers as a problem document (`RequestBodyError`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { RequestBodyError } from '../http/read-body.ts';
import { BODY_IDLE_TIMEOUT_SECONDS, MAX_BODY_BYTES } from '../service-facts.ts';

const BODY_IDLE_TIMEOUT_MS = BODY_IDLE_TIMEOUT_SECONDS * 1000;

/** After an answer sent before the body was read: how long, and how much more of it, is read and thrown away. */
export const LINGER = { bytes: 64 * 1024 * 1024, ms: 5_000 } as const;

/** The rest of a body that is drained to keep the connection open; a larger or unknown rest closes it. */
const KEEP_ALIVE_REST_BYTES = 64 * 1024;

/** Whether a request announces a body: only such a request can leave one unread. */
export const announcesBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

type Pending = { resolve(result: IteratorResult<Buffer>): void; reject(err: unknown): void };

/**
 * The body of one request, read on demand, one chunk buffered at most. It has no own enumerable
 * property: the adapter serialises a `req.body` object that has any as JSON instead of reading it.
 */
export class RequestBody implements AsyncIterable<Buffer> {
  readonly #req: IncomingMessage;
  readonly #chunks: Buffer[] = [];
  #attached = false;
  #detached = false;
  #ended = false;
  #failure: Error | undefined;
  #pending: Pending | undefined;
  #idle: NodeJS.Timeout | undefined;
  #received = 0;

  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  /** Bytes of the body received so far. */
  get received(): number {
    return this.#received;
  }

  #onData = (chunk: Buffer) => {
    this.#received += chunk.length;
    this.#clearIdle();
    const pending = this.#pending;
    if (pending) {
      this.#pending = undefined;
      pending.resolve({ value: chunk, done: false });
    } else {
      this.#chunks.push(chunk);
      this.#req.pause();
    }
  };

  #onEnd = () => {
    this.#ended = true;
    this.#settle();
  };

  // A client that goes away mid-body ('aborted', then 'close' before the body completed).
  #onClose = () => {
    if (!this.#req.complete) this.fail(new RequestBodyError('bad_request', 'The request body was not received completely: the client closed the connection.'));
  };

  #onError = () => this.#onClose();

  #attach(): void {
    if (this.#attached) return;
    this.#attached = true;
    this.#req.on('data', this.#onData);
    this.#req.on('end', this.#onEnd);
    this.#req.on('close', this.#onClose);
    this.#req.on('error', this.#onError);
  }

  #clearIdle(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
  }

  #settle(): void {
    const pending = this.#pending;
    if (!pending) return;
    if (this.#failure) {
      this.#pending = undefined;
      this.#clearIdle();
      pending.reject(this.#failure);
    } else if (this.#ended && this.#chunks.length === 0) {
      this.#pending = undefined;
      this.#clearIdle();
      pending.resolve({ value: undefined, done: true });
    }
  }

  /**
   * The whole body in one buffer, read before the route asks for it: the adapter hands bytes to the
   * web `Request` as they are, where a source it must iterate becomes a web stream pulled chunk by
   * chunk. For a body whose `Content-Length` is within the limit (the parser allows no more).
   * Undefined when it cannot be read whole: the failure stays for the route's own read to answer.
   */
  async whole(): Promise<Buffer | undefined> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of this) chunks.push(chunk);
    } catch {
      return undefined;
    }
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  /** Makes the reader's next (or pending) read fail with `err`; the first failure wins. */
  fail(err: Error): void {
    this.#failure ??= err;
    this.#settle();
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return {
      next: () => {
        if (this.#detached) return Promise.resolve({ value: undefined, done: true });
        this.#attach();
        const chunk = this.#chunks.shift();
        if (chunk) return Promise.resolve({ value: chunk, done: false });
        if (this.#failure) return Promise.reject(this.#failure);
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<Buffer>>((resolve, reject) => {
          this.#pending = { resolve, reject };
          this.#req.resume();
          this.#idle = setTimeout(
            () =>
              this.fail(new RequestBodyError('request_timeout', `The request body stopped arriving: nothing came for ${BODY_IDLE_TIMEOUT_SECONDS} seconds.`)),
            BODY_IDLE_TIMEOUT_MS,
          );
          this.#idle.unref();
        });
      },
      // The reader stopped early (a 413, a refusal): leave the request as it is, for `afterAnswer`.
      return: () => {
        this.#detached = true;
        this.#clearIdle();
        this.#req.off('data', this.#onData);
        this.#req.pause();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

/**
 * Decides, as the answer's head is written, what becomes of a body that is not read to its end:
 * a small known rest is drained after the answer and the connection stays open; a large or unknown
 * rest (chunked, or more than announced) gets `Connection: close`, and the close is graceful
 * (lingering close, RFC 9112 9.6): the rest is read and thrown away, memory flat, until it ends,
 * 5 s pass or 64 MiB arrive, so that closing with unread data cannot reset the connection before
 * the client has read the answer.
 */
export function afterAnswer(req: IncomingMessage, res: ServerResponse, body: RequestBody): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    res.writeHead = writeHead;
    if (!req.complete) {
      const declared = req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : NaN;
      const rest = declared - body.received;
      if (!(declared <= MAX_BODY_BYTES && rest <= KEEP_ALIVE_REST_BYTES)) res.shouldKeepAlive = false;
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];

  const socket = req.socket;
  const destroySoon = socket.destroySoon;
  // Node closes a connection that is not kept alive through `socket.destroySoon()`, from its own
  // 'finish' listener (before ours below): for a body still arriving, half-close instead, and
  // destroy the socket when the draining ends.
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
