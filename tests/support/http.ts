/** Small HTTP helpers for the end-to-end suites. */
import { request as httpRequest } from 'node:http';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** Sends a request with fetch and reads the whole reply. */
export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  return readReply(await fetch(url, { redirect: 'manual', ...init }));
}

/** A response read whole: its text, and its JSON when it is JSON. */
export async function readReply(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** POSTs a JSON body (an object is serialised; a string is sent as it is). */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return call(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
  });
}

/**
 * Sends raw bytes with node:http, for what fetch will not do (lying Content-Length, chunked bodies
 * of a chosen size). Resolves with the reply, or with status 0 when the server closed the socket.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | number>; chunks?: Buffer[]; endEarly?: boolean },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') resolve({ status: 0, headers: {}, body: '' });
      else reject(err);
    });
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}
