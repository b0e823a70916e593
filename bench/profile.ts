/**
 * `npm run bench:profile -- [lead|status|flood] [seconds] [--functions] [--concurrency=N]`: where one request's CPU
 * goes. It starts the built service as `npm start` does, with `--cpu-prof`, sends distinct valid
 * leads (or `GET /api/v1`, or one client's flood of refused leads) at concurrency 16 (or N) for a few
 * seconds after a 2-second warm-up, stops it, and reads the profile of the measured seconds: the
 * CPU per answer, and the share of it spent in each part of the path
 * (each sample counts once, for the part of the frame nearest its leaf that a rule recognises);
 * `--functions` adds the 40 functions with the most self time. `--cpu-prof` itself slows the server
 * (about twice the CPU per request here): read the shares, and take the rates from `npm run bench`.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const kind = (process.argv[2] ?? 'lead') as 'lead' | 'status' | 'flood';
const seconds = Number(process.argv[3] ?? 6);
const concurrency = Number(process.argv.find((a) => a.startsWith('--concurrency='))?.split('=')[1] ?? 16);

/**
 * Where each sample of the server's main thread belongs: to the part named by the frame nearest
 * the leaf that one of these rules recognises (a native SQLite call belongs to the store function
 * that made it, a hash to crypto wherever it was called from). Each sample counts once.
 */
const PARTS: Array<{ part: string; test(frame: { functionName: string; url: string }): boolean }> = [
  { part: 'garbage collection', test: (f) => f.functionName === '(garbage collector)' },
  { part: 'phone library (libphonenumber-js)', test: (f) => f.url.includes('/libphonenumber-js/') },
  { part: 'zod', test: (f) => f.url.includes('/zod/') },
  { part: 'log lines (pino)', test: (f) => /\/(pino|sonic-boom|pino-std-serializers)\//.test(f.url) },
  { part: 'rate limiter (rate-limiter-flexible; the in-process one is in "our code")', test: (f) => f.url.includes('/rate-limiter-flexible/') },
  { part: 'store (SQLite statements, commit, fsync)', test: (f) => ['commitBatch', 'submitInTransaction', 'flush'].includes(f.functionName) },
  { part: 'hashing and random ids (node:crypto)', test: (f) => f.url.startsWith('node:internal/crypto') },
  { part: 'web Request, Headers, streams (undici, WHATWG streams)', test: (f) => /undici|internal\/webstreams|internal\/deps\/undici/.test(f.url) },
  {
    part: 'HTTP parsing and sockets (node:http, node:net)',
    test: (f) => /^node:(_http_|internal\/http|net|internal\/stream_base|stream|internal\/streams)/.test(f.url) || f.functionName === 'parserOnHeadersComplete',
  },
  {
    part: 'Astro (core pipeline and the node adapter, bundled)',
    test: (f) => /dist\/server\/chunks\/(server|sequence|entrypoint|node|rolldown-runtime)_/.test(f.url),
  },
  { part: 'our code (server, middleware, route, lead, problems)', test: (f) => /dist\/server\//.test(f.url) },
  { part: 'V8 and Node internals (compiled code, microtasks, timers, JSON)', test: () => true },
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

let n = 0;
function request(): { body?: string; headers: Record<string, string>; method: 'GET' | 'POST' } {
  const i = n++;
  if (kind === 'status') return { method: 'GET', headers: {} };
  const forwardedFor = kind === 'flood' ? '2001:db8::1' : `2001:db8:${((i >> 16) & 0xffff).toString(16)}:${(i & 0xffff).toString(16)}::1`;
  const body = JSON.stringify({
    name: `Profile Customer ${i}`,
    phone: '(503) 555-0142',
    email: `profile+${i}@example.com`,
    bedrooms: '3',
    bathrooms: '2.5',
    service: 'Deep clean',
    notes: `Profile lead ${i}. ${'The kitchen needs extra attention, the windows too. '.repeat(8)}`,
    communicationsConsent: true,
    consentTimestamp: '2026-11-20T17:03:00Z',
    pageUrl: 'https://www.example-cleaning.com/quote',
  });
  return { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor } };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
// `npm start` execs the server; the profile runs the same command.
const start: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.replace(/^exec /, '');
const args = [...start.split(/\s+/).slice(1, -1), '--cpu-prof', `--cpu-prof-dir=${dir}`, start.split(/\s+/).at(-1)!];
const child = spawn(process.execPath, args, {
  cwd: ROOT,
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: `file:${join(dir, 'leads.sqlite')}`,
    TRUST_PROXY: '127.0.0.1, ::1',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise<number>((done) => {
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk;
    const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
    if (line) done(JSON.parse(line).port);
  });
});
child.stdout!.resume();
const path = kind === 'status' ? '/api/v1' : '/api/v1/leads';
const drive = (duration: number) =>
  autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: concurrency, duration, requests: [{ setupRequest: (req) => ({ ...req, ...request() }) }] });
await drive(2);
// V8's profile times are microseconds of the system's monotonic clock, as process.hrtime is.
const micros = () => Number(process.hrtime.bigint() / 1000n);
const window = { from: micros(), to: 0 };
const result = await drive(seconds);
window.to = micros();
await new Promise<void>((done) => {
  child.once('exit', () => done());
  child.kill('SIGTERM');
});

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
rmSync(dir, { recursive: true, force: true });

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
const partTime = new Map<string, number>();
const selfTime = new Map<string, number>();
let busy = 0;
let at = (profile as unknown as { startTime: number }).startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  // Only the measured load: not start-up, warm-up or shutdown.
  if (at < window.from || at > window.to) continue;
  const leaf = byId.get(profile.samples[i]!)!;
  if (leaf.callFrame.functionName === '(idle)') continue;
  busy += dt;
  let part: string | undefined;
  for (let id: number | undefined = leaf.id; id !== undefined && !part; id = parent.get(id)) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(root)') break;
    part = PARTS.slice(0, -1).find((p) => p.test(frame))?.part;
  }
  part ??= PARTS.at(-1)!.part;
  partTime.set(part, (partTime.get(part) ?? 0) + dt);
  const self = `${part.split(' ')[0]} ${leaf.callFrame.functionName || '(anonymous)'} ${leaf.callFrame.url.replace(/^.*\//, '')}`;
  selfTime.set(self, (selfTime.get(self) ?? 0) + dt);
}
const answered = result.requests.total;
const perRequest = (us: number) => (us / answered).toFixed(1);
console.log(
  `${kind} at concurrency ${concurrency} for ${seconds} s after 2 s of warm-up: ${answered} answers (${Math.round(result.requests.average)}/s; status ${Object.keys((result as unknown as { statusCodeStats: object }).statusCodeStats).join(', ')})`,
);
console.log(`CPU of the server's main thread: ${perRequest(busy)} µs per answer (the rest of the time it was idle)\n`);
console.log('| part | µs per answer | share |\n|---|---|---|');
for (const p of PARTS) {
  const t = partTime.get(p.part) ?? 0;
  console.log(`| ${p.part} | ${perRequest(t)} | ${((100 * t) / busy).toFixed(0)}% |`);
}

if (process.argv.includes('--functions')) {
  console.log('\n| part, function, file (self time) | µs per answer |\n|---|---|');
  for (const [name, t] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`| ${name} | ${perRequest(t)} |`);
}
