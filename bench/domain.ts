/**
 * `npm run bench:domain`: what a lead's own work costs, without HTTP or Astro: JSON.parse,
 * validation (zod and the phone library), building the record (ids, fingerprint hash), the
 * in-memory limiter, and the SQLite store's submit, one commit per lead and in batches of 16 as
 * group commit makes them at concurrency 16. Microseconds per lead on one core; nothing asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toLeadRecord } from '../src/leads/lead.ts';
import { validateLead, type ValidLead } from '../src/leads/validate.ts';
import { createMemoryLimiter } from '../src/limiter/memory-limiter.ts';
import { RATE_LIMIT } from '../src/service-facts.ts';
import { openSqliteStore } from '../src/store/sqlite/index.ts';

const N = 20_000;
const bodies = Array.from({ length: N }, (_, i) =>
  JSON.stringify({
    name: `Domain Customer ${i}`,
    phone: '(503) 555-0142',
    email: `domain+${i}@example.com`,
    bedrooms: '3',
    bathrooms: '2.5',
    service: 'Deep clean',
    notes: `Lead ${i}. ${'The kitchen needs extra attention, the windows too. '.repeat(8)}`,
    communicationsConsent: true,
    consentTimestamp: '2026-11-20T17:03:00Z',
    pageUrl: 'https://www.example-cleaning.com/quote',
  }),
);
const report = (label: string, ms: number, count: number) => console.log(`${label}: ${((ms * 1000) / count).toFixed(1)} µs per lead`);

/** Runs `fn` N times after a warm-up and reports the mean. */
function time(label: string, fn: (i: number) => unknown): void {
  for (let i = 0; i < 2_000; i++) fn(i);
  const started = performance.now();
  for (let i = 0; i < N; i++) fn(i);
  report(label, performance.now() - started, N);
}

time('JSON.parse', (i) => JSON.parse(bodies[i]!));
const parsed: unknown[] = bodies.map((b) => JSON.parse(b));
time('validateLead (zod, phone)', (i) => validateLead(parsed[i]));
const valid = parsed.map((p) => (validateLead(p) as { ok: true; lead: ValidLead }).lead);
const meta = () => ({ receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '2001:db8::1', userAgent: 'bench', now: new Date() });
time('toLeadRecord (ids, fingerprint)', (i) => toLeadRecord(valid[i]!, meta()));

const limiter = createMemoryLimiter(RATE_LIMIT);
let started = performance.now();
await Promise.all(Array.from({ length: N }, (_, i) => limiter.consume(`client-${i}`)));
report('limiter consume (a new client each)', performance.now() - started, N);

const dir = mkdtempSync(join(tmpdir(), 'bench-domain-'));
const store = openSqliteStore(join(dir, 'leads.sqlite'), { groupCommit: true });
let n = 0;
for (const batch of [1, 16]) {
  const from = n;
  started = performance.now();
  for (let j = 0; j < 300; j++) await Promise.all(Array.from({ length: batch }, () => store.submit(toLeadRecord(valid[n++ % N]!, meta()), undefined)));
  report(`store.submit in batches of ${batch} (with toLeadRecord, commit and fsync)`, performance.now() - started, n - from);
}
await store.close();
rmSync(dir, { recursive: true, force: true });
