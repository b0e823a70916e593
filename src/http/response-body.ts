/**
 * What becomes of an on-demand answer on its way out: its headers set, and its body. A route's body may be a stream that
 * reads the store as it is pulled (the office's export): it must be read no faster than the client
 * takes it, and cancelled as soon as nobody will take it, so that no request holds a read open
 * past its answer. A HEAD's body is cancelled unread (Node would read it, then drop it); any other
 * is paced by the transport's `drained` (our server's: the socket has room again, or is gone), and
 * the adapter cancels it when the connection closes.
 */

/** `response` without its body, which is cancelled unread: the answer to a HEAD. */
export function withoutBody(response: Response): Response {
  if (response.body === null) return response;
  void response.body.cancel().catch(() => {});
  return new Response(null, response);
}

/** `response` whose body is read only once `drained()` says the client has taken what came before. */
export function paced(response: Response, drained: () => Promise<void>): Response {
  if (response.body === null) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await drained();
        const { done, value } = await reader.read();
        try {
          if (done) controller.close();
          else controller.enqueue(value);
        } catch {
          // Cancelled while waiting for room: the reader below is cancelled already.
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // Nothing is read ahead: each piece is pulled when the writer asks for it.
    { highWaterMark: 0 },
  );
  return new Response(body, response);
}

/** A body read from `source` one piece per pull, nothing ahead; cancelling it ends `source` (its `finally` runs). */
export function pulledBody(source: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await source.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: async () => void (await source.return(undefined)),
    },
    { highWaterMark: 0 },
  );
}

/** `response` with `headers` set; a response whose headers are immutable (a redirect) is copied first. */
export function withHeaders(response: Response, headers: Readonly<Record<string, string>>): Response {
  let target = response;
  try {
    for (const name in headers) target.headers.set(name, headers[name]!);
  } catch {
    target = new Response(response.body, response);
    for (const name in headers) target.headers.set(name, headers[name]!);
  }
  return target;
}
