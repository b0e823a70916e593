import { describe, expect, it } from 'vitest';
import { isJsonMediaType } from '../../src/http/leads-handler.ts';
import { parseIdempotencyKey } from '../../src/http/idempotency-key.ts';
import { parseJson, readBodyText } from '../../src/http/read-body.ts';
import { MAX_BODY_BYTES } from '../../src/service-facts.ts';
import { Problem } from '../../src/problems/problem.ts';

const codeOf = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return err instanceof Problem ? err.code : `not a problem: ${String(err)}`;
  }
  return 'no error';
};

/** A request whose body streams `chunks` and counts how many were pulled. */
function streamingRequest(chunks: Uint8Array[], headers: Record<string, string> = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks[pulled++];
        if (next) controller.enqueue(next);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
  return { request, pulled: () => pulled };
}

describe('readBodyText', () => {
  it('refuses a declared Content-Length over the limit before reading anything', async () => {
    const { request, pulled } = streamingRequest([new Uint8Array(10)], { 'content-length': String(MAX_BODY_BYTES + 1) });
    expect(await codeOf(readBodyText(request))).toBe('payload_too_large');
    expect(pulled()).toBe(0);
  });

  it('stops reading a stream as soon as it passes the limit, whatever the length header said', async () => {
    const chunks = Array.from({ length: 100 }, () => new Uint8Array(4096));
    const { request, pulled } = streamingRequest(chunks, { 'content-length': '10' });
    expect(await codeOf(readBodyText(request))).toBe('payload_too_large');
    expect(pulled()).toBeLessThanOrEqual(6);
  });

  it('accepts a body of exactly the limit', async () => {
    const { request } = streamingRequest([new TextEncoder().encode('x'.repeat(MAX_BODY_BYTES))]);
    expect((await readBodyText(request)).length).toBe(MAX_BODY_BYTES);
  });

  it('refuses invalid UTF-8 as malformed_json', async () => {
    const { request } = streamingRequest([Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d])]);
    expect(await codeOf(readBodyText(request))).toBe('malformed_json');
  });
});

describe('parseJson', () => {
  it('refuses empty and invalid JSON without quoting the body back', () => {
    expect(() => parseJson('')).toThrow(Problem);
    expect(() => parseJson('{"name": "Jane Secret"')).toThrow(expect.objectContaining({ code: 'malformed_json', detail: expect.not.stringContaining('Jane') }));
  });
});

describe('isJsonMediaType', () => {
  it('accepts application/json with or without a UTF-8 charset, in any case', () => {
    for (const ok of ['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"'])
      expect(isJsonMediaType(ok), ok).toBe(true);
  });
  it('refuses everything else', () => {
    for (const bad of [
      null,
      '',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/json, text/plain',
      'application/jsonp',
    ]) {
      expect(isJsonMediaType(bad), String(bad)).toBe(false);
    }
  });
});

describe('parseIdempotencyKey', () => {
  it('accepts a structured-field string or a bare token', () => {
    expect(parseIdempotencyKey(null)).toBeUndefined();
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('"a \\"b\\""')).toBe('a "b"');
  });
  it('refuses empty, over-long and malformed keys', async () => {
    for (const bad of ['""', '', 'a b', '"unterminated', 'x'.repeat(256), 'a,b']) {
      expect(await codeOf(() => parseIdempotencyKey(bad)), bad).toBe('invalid_idempotency_key');
    }
  });
});
