/** The log a person reads in a terminal (`src/app/log-line.ts`), and when the log is JSON instead. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readableLine } from '../../src/app/log-line.ts';
import { createLogger, logFormat } from '../../src/app/logger.ts';
import { loadConfig } from '../../src/config/config.ts';
import { listenFailure } from '../../src/server/listen-error.ts';

const time = '2026-11-25T14:03:07.123Z';
const at = new Date(time).toTimeString().slice(0, 8);
const request = (fields: Record<string, unknown>) => readableLine({ level: 30, time, msg: 'request', reqId: 'a1b2', ...fields });

describe('a readable log line', () => {
  it('says a page or API request in one short line: time, method, path, status, milliseconds', () => {
    expect(request({ method: 'GET', path: '/quote', status: 200, durationMs: 12.4 })).toBe(`${at} GET /quote 200 12 ms`);
    expect(request({ method: 'POST', path: '/api/v1/leads', status: 201, durationMs: 3.6 })).toBe(`${at} POST /api/v1/leads 201 4 ms`);
    expect(request({ method: 'GET', path: '/quote', status: null, clientGone: true, durationMs: 1 })).toBe(
      `${at} GET /quote no answer 1 ms (the client left before the whole answer)`,
    );
    expect(request({ status: 400, error: 'Invalid header value char' })).toBe(`${at} refused 400 (Invalid header value char)`);
    expect(request({ method: 'POST', path: '/quote', status: 403, durationMs: 2, refusedOrigin: 'http://127.0.0.1:4322' })).toBe(
      `${at} POST /quote 403 2 ms (a form sent from http://127.0.0.1:4322, not from this site)`,
    );
  });

  it('says nothing of static files: bundles, stylesheets, scripts, the favicon, images', () => {
    for (const path of ['/_astro/Page.C3x9.css', '/_astro/enhance.js', '/favicon.svg', '/favicon.ico', '/styles/site.css', '/@vite/client', '/logo.png']) {
      expect(request({ method: 'GET', path, status: 200, durationMs: 1 }), path).toBeUndefined();
    }
    for (const path of ['/', '/developers', '/llms.txt', '/openapi.json', '/office']) expect(request({ method: 'GET', path, status: 200 }), path).toBeDefined();
  });

  it('says an error in words: its message and its cause, never its stack', () => {
    const err = {
      name: 'StoreUnavailableError',
      message: 'the lead store cannot be reached',
      stack: 'Error: x\n    at y',
      cause: { name: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' },
    };
    const line = readableLine({ level: 50, time, msg: 'lead store unavailable', reqId: 'a1b2', err });
    expect(line).toBe(
      `${at} error: lead store unavailable: StoreUnavailableError: the lead store cannot be reached, because connect ECONNREFUSED 127.0.0.1:5432`,
    );
    expect(readableLine({ level: 40, time, msg: 'office e-mail failed; it will be tried again', leadId: 'L1', attempt: 2 })).toBe(
      `${at} warning: office e-mail failed; it will be tried again (leadId L1, attempt 2)`,
    );
  });

  it('is written by the logger as text, one line a record, and its JSON stays JSON', () => {
    const written = (format: 'json' | 'text') => {
      const lines: string[] = [];
      const logger = createLogger('info', new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }), format);
      logger.info({ reqId: 'r', method: 'GET', path: '/contact', status: 200, durationMs: 5 }, 'request');
      logger.info({ reqId: 'r', method: 'GET', path: '/_astro/site.css', status: 200, durationMs: 1 }, 'request');
      return lines.join('');
    };
    expect(written('text')).toMatch(/^\d\d:\d\d:\d\d GET \/contact 200 5 ms\n$/);
    expect(
      written('json')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).path),
    ).toEqual(['/contact', '/_astro/site.css']);
  });
});

describe('LOG_FORMAT', () => {
  it('is text on a terminal and JSON elsewhere when unset; json or text when set', () => {
    expect(logFormat(loadConfig({}).logFormat, { isTTY: true })).toBe('text');
    expect(logFormat(loadConfig({}).logFormat, { isTTY: false })).toBe('json');
    expect(logFormat(loadConfig({}).logFormat, {})).toBe('json');
    expect(logFormat(loadConfig({ LOG_FORMAT: 'json' }).logFormat, { isTTY: true })).toBe('json');
    expect(logFormat(loadConfig({ LOG_FORMAT: 'text' }).logFormat, { isTTY: false })).toBe('text');
    expect(() => loadConfig({ LOG_FORMAT: 'pretty' })).toThrow(/LOG_FORMAT must be json or text/);
  });
});

describe('a port that cannot be listened on', () => {
  it('is said in one line naming the port and how to choose another', () => {
    const busy = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4321'), { code: 'EADDRINUSE' });
    const line = listenFailure(busy, '127.0.0.1', 4321);
    expect(line).toMatch(/port 4321 on 127\.0\.0\.1 is already in use/);
    expect(line).toContain('PORT=4322 npm start');
    expect(line).not.toMatch(/EADDRINUSE|\n/);
  });
});
