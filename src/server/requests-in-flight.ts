/**
 * The requests on their way, by connection: what a parser error on a connection must reach (its
 * request's body and answer). A flight lasts until its answer is sent and its body read: a parse
 * error on the rest of an answered body must close the connection, not answer a second time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestBody } from './request-body.ts';
import type { RequestNotes } from './request-log.ts';

/** A request on its way. */
export interface Flight {
  req: IncomingMessage;
  res: ServerResponse;
  body: RequestBody | undefined;
  requestId: string;
  notes: RequestNotes;
}

/** The flights of a server's connections. */
export interface Flights {
  /** Records `flight` as its connection's until it has landed (answered, body read). */
  take(flight: Flight): void;
  /** The flight on `socket`, if a request is on its way there. */
  on(socket: Socket): Flight | undefined;
}

export function createFlights(): Flights {
  const flights = new WeakMap<Socket, Flight>();
  return {
    take(flight) {
      const { req, res } = flight;
      const socket = req.socket;
      flights.set(socket, flight);
      const land = () => {
        if (flights.get(socket)?.res === res) flights.delete(socket);
      };
      res.once('close', () => (req.complete ? land() : req.once('end', land)));
    },
    on: (socket) => flights.get(socket),
  };
}
