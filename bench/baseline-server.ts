/**
 * The benchmark's baseline: a bare node:http server that does the same work per lead inline (read
 * the body with the same 20,000-byte limit, validate with the same schemas, insert into SQLite with
 * the same durability: WAL, synchronous=FULL, one commit per lead) and nothing else. It also serves
 * the same prerendered files from memory, as a bare static server, and a small JSON for GET /api/v1.
 * `POST /flood` refuses the way the service refuses a client past its limit: the same limiter (10 a
 * minute per X-Forwarded-For, in memory), the body read and thrown away, a 429 problem document
 * with the rate-limit headers.
 * Usage: node bench/baseline-server.ts <sqlite path> <dist/client dir>
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { toLeadRecord } from '../src/leads/lead.ts';
import { validateLead } from '../src/leads/validate.ts';
import { SQLITE_MIGRATIONS } from '../src/store/migrations.ts';

const [path = 'baseline.sqlite', client = 'dist/client'] = process.argv.slice(2);
const LIMIT = 20_000;

const db = new DatabaseSync(path);
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
for (const m of SQLITE_MIGRATIONS) db.exec(m.sql);
const insert = db.prepare(
  'INSERT INTO leads (id, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
);

const files: Record<string, { body: Buffer; type: string }> = {
  '/developers': { body: readFileSync(join(client, 'developers/index.html')), type: 'text/html; charset=utf-8' },
  '/openapi.json': { body: readFileSync(join(client, 'openapi.json')), type: 'application/json' },
};
const status = JSON.stringify({ name: 'Lead Intake API', status: 'ok' });

const limiter = new RateLimiterMemory({ points: 10, duration: 60 });
function flood(req: IncomingMessage, res: ServerResponse): void {
  const answer = (status: number, limit: RateLimiterRes) => {
    const body = JSON.stringify({ type: 'https://example.com/problems/rate_limited', title: 'Too many submissions', status, detail: `The limit resets in ${Math.ceil(limit.msBeforeNext / 1000)} seconds.`, code: 'rate_limited' });
    res.writeHead(status, { 'Content-Type': 'application/problem+json', 'RateLimit-Policy': '10;w=60', RateLimit: `limit=10, remaining=${limit.remainingPoints}, reset=${Math.ceil(limit.msBeforeNext / 1000)}`, 'Retry-After': String(Math.ceil(limit.msBeforeNext / 1000)) }).end(body);
  };
  limiter.consume(String(req.headers['x-forwarded-for'])).then(
    (limit) => req.resume().once('end', () => answer(201, limit)),
    (limit: RateLimiterRes) => req.resume().once('end', () => answer(429, limit)),
  );
}

const server = createServer((req, res) => {
  if (req.url === '/flood') return flood(req, res);
  const file = files[req.url ?? ''];
  if (file) return void res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length }).end(file.body);
  if (req.method === 'GET') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(status);
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > LIMIT) return void res.writeHead(413).end();
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return void res.writeHead(400).end();
    }
    const v = validateLead(body);
    if (!v.ok) return void res.writeHead(422, { 'Content-Type': 'application/json' }).end(JSON.stringify(v.errors));
    const lead = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: req.socket.remoteAddress ?? '', userAgent: null, now: new Date() });
    insert.run(lead.id, lead.formType, lead.receivedAt, lead.receivedVia, JSON.stringify(lead.fields), lead.phoneE164, lead.emailNormalised, lead.fingerprint, JSON.stringify(lead.consent));
    res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: lead.id, formType: lead.formType, status: 'received', receivedAt: lead.receivedAt }));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: (server.address() as { port: number }).port, pid: process.pid })}\n`);
});
process.on('SIGTERM', () => server.close(() => (db.close(), process.exit(0))));
