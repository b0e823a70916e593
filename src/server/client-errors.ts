/**
 * What the HTTP parser refuses (`clientError`): in the middle of a request, its body ends with the
 * problem, which the route reading it answers (400, or 408), and the connection closes after that
 * answer; between requests, the server answers the problem on the raw socket itself.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { RequestBodyError } from '../http/read-body.ts';
import type { SecurityHeaders } from '../http/security-headers.ts';
import { PROBLEMS } from '../problems/registry.ts';
import type { Flights } from './requests-in-flight.ts';
import { respondOwn, sendRaw, transportProblem, transportProblemResponse } from './own-responses.ts';
import { LINGER } from './request-body.ts';
import type { RequestLog } from './request-log.ts';

/** How long a request whose framing broke may take to answer before the server answers for it. */
const FRAMING_ANSWER_GRACE_MS = 2_000;

/** The server's `clientError` listener. */
export function onClientError(deps: {
  siteUrl: string;
  security: SecurityHeaders;
  requestLog: RequestLog;
  logger: Logger;
  flights: Flights;
}): (err: NodeJS.ErrnoException, socket: Socket) => void {
  const { siteUrl, security, requestLog, logger, flights } = deps;
  return (err, socket) => {
    const problem = transportProblem(err);
    const flight = flights.on(socket);
    if (flight) {
      const { req, res, body } = flight;
      flight.notes.error = err.code;
      // The end of the client's side in the middle of a request: it hung up.
      if (err.code === 'HPE_INVALID_EOF_STATE') flight.notes.clientGone = true;
      res.shouldKeepAlive = false;
      if (!req.complete) body?.fail(new RequestBodyError(problem.code === 'request_timeout' ? 'request_timeout' : 'bad_request', problem.detail));
      if (res.writableFinished) return void socket.destroy();
      // A route that is not reading the body, or an answer already under way: do not wait forever.
      const timer = setTimeout(() => {
        if (!res.headersSent) void respondOwn(res, security.api, Promise.resolve(transportProblemResponse(problem, siteUrl, flight.requestId)), logger);
        else socket.destroy();
      }, FRAMING_ANSWER_GRACE_MS);
      timer.unref();
      res.once('close', () => clearTimeout(timer));
      setTimeout(() => socket.destroy(), FRAMING_ANSWER_GRACE_MS + LINGER.ms).unref();
      return;
    }
    const requestId = randomUUID();
    if (err.code === 'ECONNRESET' || !socket.writable) {
      requestLog.refused(requestId, null, err.code);
      return void socket.destroy();
    }
    requestLog.refused(requestId, PROBLEMS[problem.code].status, err.code);
    void sendRaw(socket, transportProblemResponse(problem, siteUrl, requestId), { ...security.api, 'X-Request-Id': requestId });
  };
}
