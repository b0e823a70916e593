/**
 * The clean stop: every request the server has begun is finished and answered, and clients learn
 * to reconnect instead of being reset (Fastify's `close`; the house's decision 0013).
 *
 * Node's own `server.close()` is not enough under keep-alive load: it destroys the connections
 * idle at that instant (a client may be sending its next request on one right then), and a busy
 * connection goes on reading new requests, each answered `Connection: keep-alive`. So, once the
 * stop begins:
 * - the listening socket closes (new connections meet a closed port);
 * - every answer not yet begun says `Connection: close`, and Node closes its connection after it;
 * - connections idle at that instant get a short window to send the request that may already be on
 *   its way (answered with `Connection: close`), and are closed after it;
 * - the stop is over when no connection is left and every handler has settled: the store may close.
 * The grace period is only for a client that never reads its answer or never finishes its request.
 */
import { Server as NetServer } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

/**
 * How long a connection idle when the stop begins may still bring the request already on its way.
 * A client stalled longer than this (a busy machine) sends into a closed connection and is reset:
 * 200 ms was measured too short under the test suite's own load (2026-11), so a second.
 */
export const IDLE_WINDOW_MS = 1_000;

/** What the stop waits for, at most, before it closes every connection. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** How long handlers may still run after the grace period closed their connections. */
const HANDLER_GRACE_MS = 5_000;

/** How the stop ended: everything answered, or connections cut at the grace period. */
export type StopOutcome = 'drained' | 'forced';

/** The server's side of a clean stop. */
export interface GracefulStop {
  /**
   * Counts a request from its arrival until its answer is out and its handler has settled; the
   * returned function tells that the handler settled. Called first for every request.
   */
  begin(res: ServerResponse): () => void;
  /** Starts the stop; resolves once every request begun is finished (or the grace period ran out). */
  stop(): Promise<StopOutcome>;
}

/** The clean stop of `server`, whose requests call `begin`. */
export function gracefulStop(server: Server, timing = { idleWindowMs: IDLE_WINDOW_MS, graceMs: SHUTDOWN_GRACE_MS }): GracefulStop {
  let stopping = false;
  let windowOver = false;
  /** Answers not yet closed: their `Connection` header may still be chosen. */
  const open = new Set<ServerResponse>();
  let handlers = 0;
  let onSettled: (() => void) | undefined;

  const settled = () => {
    if (handlers === 0 && open.size === 0) onSettled?.();
  };

  return {
    begin(res) {
      if (stopping) res.shouldKeepAlive = false;
      open.add(res);
      handlers++;
      let handled = false;
      res.once('close', () => {
        open.delete(res);
        // An answer whose head went out before the stop said keep-alive: its connection is idle now.
        if (windowOver) server.closeIdleConnections();
        settled();
      });
      return () => {
        if (handled) return;
        handled = true;
        handlers--;
        settled();
      };
    },

    stop() {
      stopping = true;
      for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
      // net's close, not http's: http's would destroy the idle connections at once (see above).
      const unlistened = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      const window = setTimeout(() => {
        windowOver = true;
        server.closeIdleConnections();
      }, timing.idleWindowMs);
      const drained = new Promise<void>((resolve) => {
        onSettled = resolve;
        settled();
      });
      let forced = false;
      let grace: NodeJS.Timeout | undefined;
      const cut = new Promise<void>((resolve) => {
        grace = setTimeout(() => {
          forced = true;
          server.closeAllConnections();
          setTimeout(resolve, HANDLER_GRACE_MS).unref();
        }, timing.graceMs);
        grace.unref();
      });
      return Promise.race([Promise.all([unlistened, drained]), cut]).then(() => {
        clearTimeout(window);
        clearTimeout(grace);
        return forced ? 'forced' : 'drained';
      });
    },
  };
}
