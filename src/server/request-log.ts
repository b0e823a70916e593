/**
 * The one log line of each request: id, method, path (never the query), the status that was sent,
 * and duration. It says what really happened: a status only once it was sent, `clientGone` when the
 * connection ended before the whole answer was handed over or the client hung up in the middle of
 * its request, `error` for what the HTTP parser refused. 5xx at error, everything else at info. No personal data: nothing of the body or query.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { requestLogger } from '../app/logger.ts';

/** At most this much of an odd request target is logged beside the path it was normalised to. */
const MAX_TARGET_LOGGED = 200;

/** What the transport learned about a request while it was answered. */
export interface RequestNotes {
  error?: string;
  clientGone?: true;
  /** The origin a form sent from another address named (never a customer's data: a scheme, a host and a port). */
  refusedOrigin?: string;
}

export interface RequestLog {
  /**
   * Logs `req` once `res` closes; `oddTarget`, the target as sent, when it was not in its normal
   * form. What the transport learns meanwhile (a parser error, a client gone) goes into the
   * returned notes, which the line carries.
   */
  follow(req: IncomingMessage, res: ServerResponse, reqId: string, path: string, oddTarget?: string): RequestNotes;
  /** Logs an answer made without a request (the parser refused the connection's bytes). */
  refused(reqId: string, status: number | null, error: string | undefined): void;
}

export function createRequestLog(logger: Logger): RequestLog {
  const log = requestLogger(logger);
  return {
    follow(req, res, reqId, path, oddTarget) {
      const started = performance.now();
      const notes: RequestNotes = {};
      res.once('close', () => {
        const status = res.headersSent ? res.statusCode : null;
        const line = {
          reqId,
          method: req.method,
          path,
          ...(oddTarget !== undefined && { target: oddTarget.split('?', 1)[0]!.slice(0, MAX_TARGET_LOGGED) }),
          status,
          // The connection ended before the answer was handed over, or the client hung up mid-request.
          ...((!res.writableFinished || req.readableAborted || notes.clientGone) && { clientGone: true }),
          ...(notes.error && { error: notes.error }),
          ...(notes.refusedOrigin && { refusedOrigin: notes.refusedOrigin }),
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        };
        if (status !== null && status >= 500) log.error(line, 'request');
        else log.info(line, 'request');
      });
      return notes;
    },
    refused(reqId, status, error) {
      log.info({ reqId, status, ...(status === null && { clientGone: true }), error }, 'request');
    },
  };
}
