/**
 * The benchmark's baseline: a bare node:http server that does the same work per lead inline (read
 * the body with the same 20,000-byte limit, validate with the same schemas, insert into SQLite with
 * the same durability: WAL, synchronous=FULL, one commit per lead) and nothing else. It also serves
 * the same prerendered files from memory, as a bare static server, and a small JSON for GET /api/v1.
 * `POST /flood` refuses the way the service refuses a client past its limit: the same limiter (10 a
 * minute per X-Forwarded-For, in memory), the body read and thrown away, a 429 problem document
 * with the rate-limit headers. `POST /constant` reads the body with the same limit and answers a
 * constant 201: bare Node's own floor for a lead-sized request, which the bare Astro endpoint is set against.
 * `POST /bare` is the bare platform: the body read with the same limit, `JSON.parse`d, and inserted
 * as it came into a minimal table of its own (`bare_leads`: an integer id and the body's text), one
 * durable commit per request (the same WAL and synchronous=FULL, node:sqlite), then a constant 201.
 * Usage: node bench/baseline-server.ts <sqlite path> <dist/client dir>
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { toLeadRecord } from '../src/leads/lead.ts';
import { validateLead } from '../src/leads/validate.ts';
import { createMemoryLimiter } from '../src/limiter/memory-limiter.ts';
import type { RateLimitState } from '../src/limiter/rate-limiter.ts';
import { RATE_LIMIT, RATE_LIMIT_POLICY } from '../src/service-facts.ts';
import { SQLITE_MIGRATIONS } from '../src/store/sqlite/migrations.ts';

const [path = 'baseline.sqlite', client = 'dist/client'] = process.argv.slice(2);
const LIMIT = 20_000;

const db = new DatabaseSync(path);
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
for (const m of SQLITE_MIGRATIONS) db.exec(m.sql);
db.exec('CREATE TABLE IF NOT EXISTS bare_leads (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT');
/** The bare platform's one insert: outside any transaction, so each is its own commit. */
const insertBare = db.prepare('INSERT INTO bare_leads (body) VALUES (?)');
const insert = db.prepare(
  'INSERT INTO leads (id, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
);

const files: Record<string, { body: Buffer; type: string }> = {
  '/developers': { body: readFileSync(join(client, 'developers/index.html')), type: 'text/html; charset=utf-8' },
  '/openapi.json': { body: readFileSync(join(client, 'openapi.json')), type: 'application/json' },
};
const status = JSON.stringify({ name: 'Lead Intake API', status: 'ok' });

const limiter = createMemoryLimiter(RATE_LIMIT);
function flood(req: IncomingMessage, res: ServerResponse): void {
  const answer = (limit: RateLimitState) => {
    const status = limit.allowed ? 201 : 429;
    const body = JSON.stringify({
      type: 'https://example.com/problems/rate_limited',
      title: 'Too many submissions',
      status,
      detail: `The limit resets in ${limit.resetSeconds} seconds.`,
      code: 'rate_limited',
    });
    res
      .writeHead(status, {
        'Content-Type': 'application/problem+json',
        'RateLimit-Policy': RATE_LIMIT_POLICY,
        RateLimit: `limit=${limit.limit}, remaining=${limit.remaining}, reset=${limit.resetSeconds}`,
        'Retry-After': String(limit.resetSeconds),
      })
      .end(body);
  };
  void limiter.consume(String(req.headers['x-forwarded-for'])).then((limit) => req.resume().once('end', () => answer(limit)));
}

const server = createServer((req, res) => {
  if (req.url === '/flood') return flood(req, res);
  if (req.url === '/bare' && req.method === 'POST')
    return void readLimited(req, res, (text) => {
      try {
        JSON.parse(text);
      } catch {
        return void res.writeHead(400).end();
      }
      insertBare.run(text);
      res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"status":"received"}');
    });
  if (req.url === '/constant' && req.method === 'POST')
    return void readLimited(req, res, () => res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"status":"received"}'));
  const file = files[req.url ?? ''];
  if (file) return void res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length }).end(file.body);
  if (req.method === 'GET') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(status);
  readLimited(req, res, (text) => {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return void res.writeHead(400).end();
    }
    const v = validateLead(body);
    if (!v.ok) return void res.writeHead(422, { 'Content-Type': 'application/json' }).end(JSON.stringify(v.errors));
    const lead = toLeadRecord(v.lead, {
      receivedVia: '/api/v1/leads',
      channel: 'api',
      clientAddress: req.socket.remoteAddress ?? '',
      userAgent: null,
      now: new Date(),
    });
    insert.run(
      lead.id,
      lead.formType,
      lead.receivedAt,
      lead.receivedVia,
      JSON.stringify(lead.fields),
      lead.phoneE164,
      lead.emailNormalised,
      lead.fingerprint,
      JSON.stringify(lead.consent),
    );
    res
      .writeHead(201, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ id: lead.id, formType: lead.formType, status: 'received', receivedAt: lead.receivedAt }));
  });
});
/** Reads the body as UTF-8 text, answering 413 past the limit. */
function readLimited(req: IncomingMessage, res: ServerResponse, then: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    if (res.headersSent) return;
    size += chunk.length;
    if (size > LIMIT) return void res.writeHead(413).end();
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!res.headersSent) then(Buffer.concat(chunks).toString('utf8'));
  });
}

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: (server.address() as { port: number }).port, pid: process.pid })}\n`);
});
process.on('SIGTERM', () => server.close(() => (db.close(), process.exit(0))));
