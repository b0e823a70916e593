/**
 * Reading a lead body without ever holding more than the limit: `Content-Length` is trusted only
 * to refuse early; streamed bytes are counted either way, so a lying or absent length changes nothing.
 */
import { Problem } from '../problems/problem.ts';
import { MAX_BODY_BYTES } from '../service-facts.ts';

/**
 * A body that the transport could not deliver: a framing error (400) or a body that stopped
 * arriving (408). Our server fails the body stream with it; reading the body answers it as a problem.
 */
export class RequestBodyError extends Error {
  override name = 'RequestBodyError';
  readonly code: 'bad_request' | 'request_timeout';
  constructor(code: 'bad_request' | 'request_timeout', detail: string) {
    super(detail);
    this.code = code;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Reads the body as UTF-8 text, refusing with 413 past `limit` bytes and 400 on invalid UTF-8. */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const bytes = await readBodyBytes(request, limit);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new Problem('malformed_json', 'The request body is not valid UTF-8.');
  }
}

/** Reads the body's bytes, refusing with 413 past `limit` bytes, 400 or 408 when the transport could not deliver them. */
export async function readBodyBytes(request: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !request.headers.has('transfer-encoding') && /^\d+$/.test(declared) && Number(declared) > limit) {
    throw tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (request.body) {
    const reader = request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > limit) {
          void reader.cancel().catch(() => {});
          throw tooLarge(limit);
        }
        chunks.push(value);
      }
    } catch (err) {
      if (err instanceof Problem) throw err;
      if (err instanceof RequestBodyError) throw new Problem(err.code, err.message);
      // The adapter's own backstop limit surfaces as a stream error; so does a client that vanished.
      if (err instanceof Error && /size limit/i.test(err.message)) throw tooLarge(limit);
      throw new Problem('bad_request', 'The request body was not received completely.');
    }
  }
  return Buffer.concat(chunks, received);
}

/**
 * Reads and discards a body that is refused unread (rate limit, credentials, media type), up to
 * the limit, so that the connection stays usable; a larger body is left to the server's lingering close.
 */
export async function discardBody(request: Request, limit = MAX_BODY_BYTES): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  // Over the limit, a client that asked `Expect: 100-continue` was never invited to send it: do not
  // wait for it (the server's lingering close deals with whatever does arrive).
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) return;
  const reader = request.body.getReader();
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      received += value.byteLength;
      if (received > limit) return void reader.cancel().catch(() => {});
    }
  } catch {
    // The client went away or the adapter's backstop fired: nothing left to drain.
  }
}

function tooLarge(limit: number): Problem {
  return new Problem('payload_too_large', `The request body is larger than ${limit.toLocaleString('en-US')} bytes.`);
}

/** Parses a JSON text, refusing with 400 `malformed_json` and the position of the fault. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new Problem('malformed_json', 'The request body is empty; a JSON object was expected.');
  try {
    return JSON.parse(text);
  } catch (err) {
    // Only the position is passed on: the parser's own message quotes the body, which is personal data.
    const position = err instanceof Error ? /position (\d+)/.exec(err.message)?.[1] : undefined;
    throw new Problem('malformed_json', `The request body is not valid JSON${position ? ` (the fault is at character ${position})` : ''}.`);
  }
}
