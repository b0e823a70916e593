/**
 * Lingering close (RFC 9112, 9.6): closing a socket that still has unread upload data makes the
 * kernel send a reset, which can destroy our answer before the client reads it. So after an answer
 * sent before the body was read, the rest is read and discarded (memory stays flat) until the body
 * ends, 5 s pass or 64 MiB arrive. On a keep-alive connection Node then reuses the socket. When the
 * connection is to close (the client sent `Connection: close`), Node would close it at once through
 * `socket.destroySoon()`; for such a request that call half-closes instead, and the socket is
 * destroyed when the lingering ends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** After an answer sent before the request body was read: how long, and how much more of it, is read and thrown away. */
export const LINGER = { bytes: 64 * 1024 * 1024, ms: 5_000 } as const;

/** Whether a request announces a body: only such a request can leave one unread. */
export const announcesBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/** Arranges for the unread rest of `req`'s body to be drained once `res` is sent. */
export function lingerIfUnread(req: IncomingMessage, res: ServerResponse): void {
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
