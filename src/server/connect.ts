/**
 * CONNECT, which Node hands to the server as a connection, not as a request: this server is no
 * proxy. The API's route table answers it on its paths (405 with `Allow`), anything else gets a
 * 400 problem; the connection then closes.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { serveRoute } from '../http/api.ts';
import { clientAddress } from '../http/client-address.ts';
import type { PublicServices, RequestInfo } from '../http/context.ts';
import { findApiRoute, isApiPath } from '../http/routes.ts';
import type { SecurityHeaders } from '../http/security-headers.ts';
import { sendRaw, transportProblemResponse } from './own-responses.ts';
import type { RequestLog } from './request-log.ts';
import { normaliseTarget } from './request-target.ts';

/** The server's `connect` listener. */
export function onConnect(deps: {
  services: PublicServices;
  security: SecurityHeaders;
  requestLog: RequestLog;
}): (req: IncomingMessage, socket: Socket) => void {
  const { services, security, requestLog } = deps;
  const { config } = services;
  return (req, socket) => {
    const requestId = randomUUID();
    socket.on('error', () => {});
    const target = normaliseTarget(req.url ?? '');
    const route = target && isApiPath(target.path) ? findApiRoute(target.path) : undefined;
    const request: RequestInfo = {
      id: requestId,
      clientAddress: clientAddress(socket.remoteAddress, req.headers['x-forwarded-for'], config.trustProxy),
      host: req.headers.host,
    };
    const response = route
      ? serveRoute(route, 'CONNECT', undefined, { services, request })
      : Promise.resolve(
          transportProblemResponse({ code: 'bad_request', detail: 'CONNECT is not supported: this server is not a proxy.' }, config.siteUrl, requestId),
        );
    void response
      .then((r) => {
        requestLog.refused(requestId, r.status, 'CONNECT');
        return sendRaw(socket, r, { ...security.api, 'X-Request-Id': requestId });
      })
      .catch(() => socket.destroy());
  };
}
