/** Helpers of the in-process HTTP suites (`tests/http/`): a reply read whole, a JSON POST, and the problem document every error must be. */
import { expect } from 'vitest';
import type { TestApp, TestRequestInit } from './app.ts';
import { readReply, type Reply } from './http.ts';

export type { Reply } from './http.ts';

/** Answers a request in process and reads the whole reply. */
export async function call(app: TestApp, path: string, init: TestRequestInit = {}): Promise<Reply> {
  return readReply(await app.fetch(path, init));
}

/** POSTs a JSON body in process (an object is serialised; a string or bytes are sent as they are). */
export function postJson(app: TestApp, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return call(app, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
  });
}

/** A problem document of `status` and `code`, as the contract has every error be. */
export function expectProblem(reply: Reply, status: number, code: string, siteUrl = 'http://localhost:4321') {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toBe('application/problem+json');
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(reply.json.code).toBe(code);
  expect(reply.json.status).toBe(status);
  expect(reply.json.error).toBe(reply.json.detail);
  expect(reply.json.type).toBe(`${siteUrl}/developers/errors#${code}`);
  expect(reply.json.instance).toBe(`urn:uuid:${reply.headers.get('x-request-id')}`);
  expect(typeof reply.json.resolution).toBe('string');
  expect(reply.headers.get('ratelimit-policy')).toBe('10;w=60');
}
