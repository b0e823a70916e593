/**
 * `npm run bench`: what a lead costs, measured against the bare platform in one process tree.
 * For each case and concurrency it starts a fresh server (the baseline, or the built service),
 * drives it with autocannon for a fixed time, and records requests/s, p50/p99 latency and the
 * server's peak RSS; every 201 of the run is then looked up in the store. Servers run on one core,
 * this load generator on the other, except in the case 'lead POST, unpinned', where servers and
 * load generator share every core, as a small server runs it. Prints one table with the ratio
 * service/baseline per row (and for the unpinned case a second one against the bare platform, and
 * a third for the variants of BENCH_WITHOUT) and writes the same as JSON to
 * bench/results/latest.json. Timings are reported, never asserted.
 *
 *   npm run bench                  5 s per row, concurrency 1, 16, 64, three runs per row (medians);
 *                                  'lead POST, unpinned' at 16 only (or BENCH_CONCURRENCY): the same-work
 *                                  baseline, the bare platform (POST /bare of bench/baseline-server.ts:
 *                                  JSON.parse and one durable SQLite insert), the service, BENCH_COMPARE's,
 *                                  BENCH_WITHOUT's, started without taskset while this process has every
 *                                  core (taskset -a -cp, back to core 0 after); each row says its cores
 *   npm run bench -- --smoke       a fraction of a second per row (the test suite's check that it runs;
 *                                  its unpinned case at 8, with the variant BENCH_WITHOUT=all)
 *   npm run bench -- --soak        100,000 leads into each server, then its memory (BENCH_SOAK_LEADS)
 *   npm run bench -- --office      the office at 10,000 and 100,000 leads over 700 days, and the first
 *                                  page on 10,000 and 100,000 leads sent within one day (bench/office/;
 *                                  also run after the rows of a whole run, and with tiny stores in the smoke)
 *   BENCH_OFFICE_STORES=day npm run bench -- --office    only the stores of leads sent within one day
 *                                  (=span: only the 700-day stores; both by default)
 *   BENCH_OFFICE_SIZES=1000,10000 BENCH_OFFICE_REPEAT=5 npm run bench -- --office
 *                                  stores of other sizes (the one-day ones: the two largest), fewer repeats
 *   BENCH_DURATION=10 BENCH_REPEAT=5 BENCH_WARMUP=2 npm run bench
 *   BENCH_CASES=beside npm run bench       only the customers beside one client's flood, pinned and unpinned
 *                                  (its own table: four customers alone, then beside the flood at 32 in flight)
 *   BENCH_CASES=lead,flood npm run bench    only the cases whose names contain one of these words ('office':
 *                                  the office; 'lead' is both lead cases, 'unpinned' the unpinned one alone)
 *   BENCH_CONCURRENCY=16 npm run bench      only these concurrencies (the unpinned case too)
 *   BENCH_PIN=0 npm run bench      every case unpinned: servers and load generator share both cores
 *   BENCH_COMPARE=../other-checkout npm run bench
 *   BENCH_COMPARE=/work/cmp-9fe20b1,/work/cmp-2f63380 npm run bench
 *                                  adds a row for the service built in each other checkout, named by its
 *                                  directory (a change's effect, measured in the same run as the baseline)
 *   BENCH_WITHOUT=leads_by_search,lead_counted npm run bench   (or =all)
 *                                  adds to the unpinned case a row per name, 'service without <name>': the
 *                                  service on a store prepared without that index or trigger on leads
 *                                  (all: every one but the primary key and the UNIQUE indexes), checked
 *                                  after the run not to be back; a table of each against the full service
 */
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { officeBench } from './office/index.ts';
import {
  coresOf,
  median,
  peakRssMiB,
  pinLoadGenerator,
  pinning,
  ROOT,
  rssMiB,
  serviceArgs,
  serviceEnv,
  startProcess,
  unpinLoadGenerator,
  type Running,
} from './serve.ts';
import { preparedWithout, stillThere, type LeadsWrites, type Without } from './without.ts';

const smoke = process.argv.includes('--smoke');
const soak = process.argv.includes('--soak');
/** `--office`: the office's benchmark alone (it also runs after the rows of a whole `npm run bench` and in the smoke). */
const officeOnly = process.argv.includes('--office');
const soakLeads = smoke ? 200 : Number(process.env.BENCH_SOAK_LEADS ?? 100_000);
const duration = smoke ? 0.4 : Number(process.env.BENCH_DURATION ?? 5);
const askedConcurrencies = process.env.BENCH_CONCURRENCY?.split(',')
  .map(Number)
  .filter((n) => n > 0);
/** The smoke's one concurrency keeps `npm test` short: it proves each row runs, not how it scales. */
const concurrencies = smoke ? [8] : (askedConcurrencies ?? [1, 16, 64]);
/** The unpinned lead case's: 16 (the smoke's 8), or BENCH_CONCURRENCY's. */
const unpinnedConcurrencies = smoke ? [8] : (askedConcurrencies ?? [16]);
/** BENCH_WITHOUT's names (indexes or triggers on `leads`, or `all`): in the smoke, `all` unless it names others. */
const withoutNames = (process.env.BENCH_WITHOUT ?? (smoke ? 'all' : ''))
  .split(',')
  .map((w) => w.trim())
  .filter(Boolean);
/** Each row is measured this many times, baseline and service in turn; the table shows medians. */
const repeat = smoke ? 1 : Number(process.env.BENCH_REPEAT ?? 3);
/** Seconds of load before each measurement, not counted (JIT warm-up, first allocations). */
const warmup = smoke ? 0.1 : Number(process.env.BENCH_WARMUP ?? 1);
pinLoadGenerator();

let counter = 0;
/** A distinct, valid quote request (not a duplicate) from a client address of its own. */
function nextLead(): { body: string; headers: Record<string, string> } {
  const n = counter++;
  const body = JSON.stringify({
    name: `Bench Customer ${n}`,
    phone: '(503) 555-0142',
    email: `bench+${n}@example.com`,
    bedrooms: '3',
    bathrooms: '2.5',
    service: 'Deep clean',
    notes: `Benchmark lead ${n}; about six hundred bytes of realistic content follow. ${'The kitchen needs extra attention, the windows too. '.repeat(8)}`,
    communicationsConsent: true,
    consentTimestamp: '2026-11-20T17:03:00Z',
    pageUrl: 'https://www.example-cleaning.com/quote',
  });
  const forwardedFor = `2001:db8:${((n >> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}::1`;
  return { body, headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor } };
}

interface Row {
  case: string;
  server: string;
  concurrency: number;
  /** The cores the server ran on (`Cpus_allowed_list`), and this load generator during the row. */
  cores: { server: string; loadGenerator: string };
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  peakRssMiB: number;
  startupMs: number;
  created?: number;
  stored?: number;
  errors: number;
  non2xx: number;
  /** requests/s of each run, in order. */
  runs: number[];
  ratio?: { throughput: number; p99: number };
  /** The unpinned case: against the bare platform (JSON.parse and one durable insert). */
  ratioToBare?: { throughput: number; p99: number };
  /** A BENCH_WITHOUT variant: what its store lacked (checked after each run not to be back). */
  without?: string[];
}

/** autocannon requests that each carry a fresh lead (see nextLead). */
const leadRequests: autocannon.Request[] = [{ setupRequest: (req) => ({ ...req, method: 'POST', ...nextLead() }) }];
/** One client's flood: fresh leads, all from one address, so that all but the first 10 a minute are refused. */
const floodRequests: autocannon.Request[] = [
  {
    setupRequest: (req) => {
      const lead = nextLead();
      return { ...req, method: 'POST', body: lead.body, headers: { ...lead.headers, 'x-forwarded-for': '2001:db8:f100::1' } };
    },
  },
];

type Load = 'get' | 'leads' | 'flood';
async function load(url: string, path: string, concurrency: number, kind: Load, seconds = duration) {
  const result = await autocannon({
    url: `${url}${path}`,
    connections: concurrency,
    duration: seconds,
    method: kind === 'get' ? 'GET' : 'POST',
    requests: kind === 'leads' ? leadRequests : kind === 'flood' ? floodRequests : undefined,
  });
  return result;
}

/**
 * A server a case measures: `start` on a fresh directory, pinned to core 1 or not; `store` and
 * `table`: where its 201s are counted; `without`: a BENCH_WITHOUT variant's store, checked after the run.
 */
type ServerKind = {
  name: string;
  start(dir: string, pin: boolean): Promise<Running>;
  store?: (dir: string) => string;
  table?: string;
  path?: string;
  without?: Without;
};
const service = (groupCommit: boolean, checkout = ROOT): ServerKind => ({
  name: checkout !== ROOT ? `service of ${basename(checkout)}` : groupCommit ? 'service' : 'service, no group commit',
  start: (dir, pin) =>
    startProcess(serviceArgs, { ...serviceEnv(dir), SQLITE_GROUP_COMMIT: groupCommit ? 'on' : 'off' }, join(dir, 'server.log'), checkout, { pin }),
  store: (dir) => join(dir, 'leads.sqlite'),
});
/** The service on a copy of a store prepared without some of the writes of a lead (bench/without.ts). */
const serviceWithout = (without: Without): ServerKind => ({
  ...service(true),
  name: without.label,
  without,
  start: (dir, pin) => {
    copyFileSync(without.template, join(dir, 'leads.sqlite'));
    return service(true).start(dir, pin);
  },
});
/** The same Astro and adapter with one constant endpoint (bench/bare-astro): Astro's share of a request. */
const bareAstro: ServerKind = {
  name: 'bare Astro endpoint',
  // With the same Node flags as `npm start`.
  start: (dir, pin) => startProcess([...serviceArgs.slice(0, -1), 'bench/bare-astro/serve.ts'], {}, join(dir, 'server.log'), ROOT, { pin }),
};
/** BENCH_COMPARE: one checkout, or several separated by commas, each built. */
const compared = (process.env.BENCH_COMPARE ?? '')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean)
  .map((p) => service(true, resolve(p)));
const baseline: ServerKind = {
  name: 'baseline',
  start: (dir, pin) =>
    startProcess(['bench/baseline-server.ts', join(dir, 'leads.sqlite'), join(ROOT, 'dist/client')], {}, join(dir, 'server.log'), ROOT, { pin }),
  store: (dir) => join(dir, 'leads.sqlite'),
};

const floodBaseline: ServerKind = { ...baseline, name: 'baseline refusing the same way', path: '/flood', store: undefined };
/** Bare Node reading the same body and answering a constant: the floor the bare Astro endpoint is set against. */
const bareNode: ServerKind = { ...baseline, name: 'bare Node endpoint', path: '/constant', store: undefined };
/** The bare platform: node:http, JSON.parse of the body and one durable SQLite insert (a table of its own) per request. */
const barePlatform: ServerKind = { ...baseline, name: 'bare platform', path: '/bare', table: 'bare_leads' };
/** The unpinned lead case's name (BENCH_WITHOUT's variants are added to it below, when it runs). */
const UNPINNED = 'lead POST, unpinned';
interface Case {
  name: string;
  path: string;
  load: Load;
  /** Its first server is the baseline its ratios are against. */
  servers: ServerKind[];
  /** Servers on core 1 and this process on core 0 (when pinning), or everything on every core. */
  pin: boolean;
  concurrencies: number[];
}
const allCases: Case[] = (
  [
    { name: 'lead POST', path: '/api/v1/leads', load: 'leads', servers: [baseline, service(true), service(false), bareNode, bareAstro, ...compared] },
    // As a small server runs it: the same-work baseline first (the ratio column), the bare platform (a table of its own).
    { name: UNPINNED, path: '/api/v1/leads', load: 'leads', servers: [baseline, barePlatform, service(true), ...compared] },
    { name: 'GET /api/v1', path: '/api/v1', load: 'get', servers: [baseline, service(true), bareAstro, ...compared] },
    { name: "429 under one client's flood", path: '/api/v1/leads', load: 'flood', servers: [floodBaseline, service(true), bareAstro, ...compared] },
    { name: 'prerendered page', path: '/developers', load: 'get', servers: [baseline, service(true), ...compared] },
    { name: '/openapi.json', path: '/openapi.json', load: 'get', servers: [baseline, service(true), ...compared] },
  ] satisfies Array<Omit<Case, 'pin' | 'concurrencies'>>
).map((c) => ({ pin: c.name !== UNPINNED && pinning, concurrencies: c.name === UNPINNED ? unpinnedConcurrencies : concurrencies, ...c }));
const only = process.env.BENCH_CASES?.split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
const cases = only ? allCases.filter((c) => only.some((w) => c.name.toLowerCase().includes(w))) : allCases;
const measuringRows = (!soak && !officeOnly) || smoke;
/** What BENCH_WITHOUT=all drops and keeps, when asked. */
let leadsWrites: LeadsWrites | undefined;
let cleanUpWithout = () => {};
if (withoutNames.length > 0 && measuringRows) {
  const unpinned = cases.find((c) => c.name === UNPINNED);
  if (!unpinned) console.log(`BENCH_WITHOUT: its rows are in the case '${UNPINNED}', which BENCH_CASES leaves out`);
  else {
    const prepared = await preparedWithout(withoutNames);
    unpinned.servers.push(...prepared.variants.map(serviceWithout));
    leadsWrites = prepared.writes;
    cleanUpWithout = prepared.cleanUp;
  }
}

if (!existsSync(join(ROOT, 'dist/server/entry.mjs'))) {
  console.log('building the site first (npm run build)…');
  spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
if (!officeOnly && cases.some((c) => c.servers.includes(bareAstro)) && !existsSync(join(ROOT, 'bench/bare-astro/dist/server/entry.mjs'))) {
  console.log('building the bare Astro endpoint (bench/bare-astro)…');
  spawnSync('npx', ['astro', 'build', '--root', 'bench/bare-astro'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
}

const rows: Row[] = [];
let lost = 0;

/** Counts the leads in a run's store (opened read-only; `table`: the bare platform's own) and adds any acknowledged one missing to `lost`. */
function storedLeads(path: string, created: number, table = 'leads'): number {
  const db = new DatabaseSync(path, { readOnly: true });
  const stored = (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  db.close();
  if (stored < created) lost += created - stored;
  return stored;
}
const createdCount = (result: autocannon.Result) =>
  (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats?.['201']?.count ?? 0;

/** One run of one row: a fresh server, a warm-up, the measured load, then the store check. */
async function measure(kind: ServerKind, c: Case, concurrency: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const server = await kind.start(dir, c.pin);
  const path = kind.path ?? c.path;
  const warm = warmup > 0 ? await load(server.url, path, concurrency, c.load, warmup) : undefined;
  let result = await load(server.url, path, concurrency, c.load);
  // The smoke's fraction of a second can pass without one answer on a machine busy with the rest of
  // the suite: it proves that the bench runs, so it measures again (a few times at most) until one came.
  for (let tries = 0; smoke && result.requests.total === 0 && tries < 5; tries++) result = await load(server.url, path, concurrency, c.load);
  const row: Row = {
    case: c.name,
    server: kind.name,
    concurrency,
    cores: { server: server.cores, loadGenerator: coresOf(process.pid) },
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    peakRssMiB: Math.round(peakRssMiB(server.pid)),
    startupMs: Math.round(server.startupMs),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    runs: [Math.round(result.requests.average)],
  };
  await server.stop();
  if (c.load !== 'get' && kind.store) {
    // Every 201 of the run, warm-up included, must be in the store.
    row.created = createdCount(result) + (warm ? createdCount(warm) : 0);
    row.stored = storedLeads(kind.store!(dir), row.created, kind.table);
  }
  if (kind.without) {
    // The service ran on the store as prepared: it put back none of what was dropped.
    const back = stillThere(kind.store!(dir), kind.without.dropped);
    if (back.length > 0) throw new Error(`${kind.name}: the service recreated ${back.join(', ')}`);
    row.without = kind.without.dropped.map((w) => w.name);
  }
  rmSync(dir, { recursive: true, force: true });
  return row;
}

const sum = (values: Array<number | undefined>) => values.reduce<number>((a, b) => a + (b ?? 0), 0);

/** The row the table shows: medians of throughput, latency and start-up; the worst peak RSS. */
function combine(samples: Row[]): Row {
  const first = samples[0]!;
  return {
    ...first,
    requestsPerSecond: Math.round(median(samples.map((r) => r.requestsPerSecond))),
    p50Ms: median(samples.map((r) => r.p50Ms)),
    p99Ms: median(samples.map((r) => r.p99Ms)),
    peakRssMiB: Math.max(...samples.map((r) => r.peakRssMiB)),
    startupMs: Math.round(median(samples.map((r) => r.startupMs))),
    errors: sum(samples.map((r) => r.errors)),
    non2xx: sum(samples.map((r) => r.non2xx)),
    runs: samples.map((r) => r.requestsPerSecond),
    ...(first.created !== undefined && { created: sum(samples.map((r) => r.created)), stored: sum(samples.map((r) => r.stored)) }),
  };
}

const ratioOf = (row: Measured, to: Measured) => ({
  throughput: +(row.requestsPerSecond / Math.max(to.requestsPerSecond, 1)).toFixed(2),
  p99: +(row.p99Ms / Math.max(to.p99Ms, 1)).toFixed(2),
});
if (measuringRows) {
  try {
    for (const c of cases) {
      // Unpinned: this process on every core meanwhile (servers started without taskset inherit it), back on core 0 after.
      if (!c.pin) unpinLoadGenerator();
      try {
        for (const concurrency of c.concurrencies) {
          // Baseline and service take turns, so that a slow spell of the machine falls on both; each round starts one server
          // further on, so that no server always runs just after another (the disk's writes of one run slow the next run's fsyncs).
          const samples = new Map<ServerKind, Row[]>(c.servers.map((k) => [k, []]));
          for (let i = 0; i < repeat; i++)
            for (let j = 0; j < c.servers.length; j++) {
              const kind = c.servers[(i + j) % c.servers.length]!;
              samples.get(kind)!.push(await measure(kind, c, concurrency));
            }
          // The first server of a case is its baseline.
          const reference = c.servers[0]!;
          const base = combine(samples.get(reference)!);
          rows.push(base);
          for (const kind of c.servers.filter((k) => k !== reference)) {
            const row = combine(samples.get(kind)!);
            row.ratio = ratioOf(row, base);
            rows.push(row);
          }
          // The unpinned case is also set against the bare platform.
          const bare = rows.find((r) => r.case === c.name && r.concurrency === concurrency && r.server === barePlatform.name);
          if (bare) for (const row of rows.filter((r) => r.case === c.name && r.concurrency === concurrency)) row.ratioToBare = ratioOf(row, bare);
        }
      } finally {
        if (!c.pin) pinLoadGenerator();
      }
    }
  } finally {
    cleanUpWithout();
  }
}

/**
 * Customers beside one client's flood (issue 57): four customers sending leads, each request from an
 * address of its own, keep-alive, alone for a run, then for a run beside one client sending leads
 * from one address at 32 in flight, keep-alive, all but its first 10 refused; pinned (the server on
 * core 1, both load generators on core 0) and unpinned (everything on every core). The customers'
 * leads/s and p99 beside the flood against alone, and the flood's own refusals a second.
 */
const BESIDE = 'customers beside a flood';
const BESIDE_CUSTOMERS = 4;
const BESIDE_FLOOD = 32;
interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  /** The server's CPU time (every thread of it) over the measured seconds, in cores. */
  serverBusy?: number;
}
/** Linux's clock ticks a second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times. */
const TICKS_PER_SECOND = 100;
/** The CPU time a process has used so far, user and system, in clock ticks. */
const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
interface BesideRow {
  server: string;
  pinned: boolean;
  cores: { server: string; loadGenerator: string };
  alone: Measured;
  beside: Measured;
  flood: { requestsPerSecond: number; refusedPerSecond: number; refusedShare: number };
  /** Beside the flood against alone: leads/s and p99. */
  ratio: { throughput: number; p99: number };
  created: number;
  stored: number;
  runs: number[];
}
const besideRows: BesideRow[] = [];
const countOf = (result: autocannon.Result, status: string) =>
  (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats?.[status]?.count ?? 0;
const measured = (result: autocannon.Result): Measured => ({ requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99 });

async function measureBeside(kind: ServerKind, pin: boolean): Promise<BesideRow> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-beside-'));
  const server = await kind.start(dir, pin);
  const path = '/api/v1/leads';
  const warm = warmup > 0 ? await load(server.url, path, BESIDE_CUSTOMERS, 'leads', warmup) : undefined;
  let ticks = cpuTicks(server.pid);
  const alone = await load(server.url, path, BESIDE_CUSTOMERS, 'leads');
  const aloneBusy = (cpuTicks(server.pid) - ticks) / (duration * TICKS_PER_SECOND);
  ticks = cpuTicks(server.pid);
  const [customers, flood] = await Promise.all([load(server.url, path, BESIDE_CUSTOMERS, 'leads'), load(server.url, path, BESIDE_FLOOD, 'flood')]);
  const besideBusy = (cpuTicks(server.pid) - ticks) / (duration * TICKS_PER_SECOND);
  const cores = { server: server.cores, loadGenerator: coresOf(process.pid) };
  await server.stop();
  const created = [warm, alone, customers, flood].reduce((n, r) => n + (r ? createdCount(r) : 0), 0);
  const stored = storedLeads(kind.store!(dir), created);
  rmSync(dir, { recursive: true, force: true });
  const refused = countOf(flood, '429');
  const row: BesideRow = {
    server: kind.name,
    pinned: pin,
    cores,
    alone: { ...measured(alone), serverBusy: +aloneBusy.toFixed(2) },
    beside: { ...measured(customers), serverBusy: +besideBusy.toFixed(2) },
    flood: {
      requestsPerSecond: Math.round(flood.requests.average),
      refusedPerSecond: Math.round(refused / duration),
      refusedShare: +(refused / Math.max(flood.requests.total, 1)).toFixed(3),
    },
    ratio: { throughput: 0, p99: 0 },
    created,
    stored,
    runs: [Math.round(customers.requests.average)],
  };
  row.ratio = ratioOf(row.beside, row.alone);
  return row;
}

/** Medians of a server's runs beside the flood. */
function combineBeside(samples: BesideRow[]): BesideRow {
  const med = (pick: (r: BesideRow) => number) => median(samples.map(pick));
  const busy = (pick: (r: BesideRow) => Measured) => +med((r) => pick(r).serverBusy ?? 0).toFixed(2);
  const alone = { requestsPerSecond: Math.round(med((r) => r.alone.requestsPerSecond)), p99Ms: med((r) => r.alone.p99Ms), serverBusy: busy((r) => r.alone) };
  const beside = {
    requestsPerSecond: Math.round(med((r) => r.beside.requestsPerSecond)),
    p99Ms: med((r) => r.beside.p99Ms),
    serverBusy: busy((r) => r.beside),
  };
  return {
    ...samples[0]!,
    alone,
    beside,
    flood: {
      requestsPerSecond: Math.round(med((r) => r.flood.requestsPerSecond)),
      refusedPerSecond: Math.round(med((r) => r.flood.refusedPerSecond)),
      refusedShare: med((r) => r.flood.refusedShare),
    },
    ratio: ratioOf(beside, alone),
    created: sum(samples.map((r) => r.created)),
    stored: sum(samples.map((r) => r.stored)),
    runs: samples.map((r) => r.beside.requestsPerSecond),
  };
}

if (measuringRows && (!only || only.some((w) => BESIDE.includes(w)))) {
  for (const pin of pinning ? [true, false] : [false]) {
    if (!pin) unpinLoadGenerator();
    try {
      const servers = [service(true), ...compared];
      const samples = new Map<ServerKind, BesideRow[]>(servers.map((k) => [k, []]));
      for (let i = 0; i < repeat; i++)
        for (let j = 0; j < servers.length; j++) {
          const kind = servers[(i + j) % servers.length]!;
          samples.get(kind)!.push(await measureBeside(kind, pin));
        }
      for (const kind of servers) besideRows.push(combineBeside(samples.get(kind)!));
    } finally {
      if (!pin) pinLoadGenerator();
    }
  }
}

interface SoakRow {
  server: string;
  leads: number;
  seconds: number;
  created: number;
  stored: number;
  /** RSS after each tenth of the leads. */
  rssByTenthMiB: number[];
  peakRssMiB: number;
  rssAfterMiB: number;
  rssIdleMiB: number;
  ratio?: { peakRss: number; rssIdle: number };
}
const soakRows: SoakRow[] = [];

/**
 * The soak: `soakLeads` distinct leads into a fresh store at concurrency 16, then the server's peak
 * RSS, its RSS at once, and its RSS after a few idle seconds (what it holds on to).
 */
if ((soak && !officeOnly) || smoke) {
  let base: SoakRow | undefined;
  for (const kind of [baseline, service(true), ...compared]) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
    const server = await kind.start(dir, pinning);
    const started = performance.now();
    // In ten legs, so that the memory after each tenth shows whether and when it levels off.
    const legs: autocannon.Result[] = [];
    const rssByTenth: number[] = [];
    for (let tenth = 1; tenth <= 10; tenth++) {
      const amount = Math.round((soakLeads * tenth) / 10) - Math.round((soakLeads * (tenth - 1)) / 10);
      legs.push(await autocannon({ url: `${server.url}/api/v1/leads`, connections: 16, amount, method: 'POST', requests: leadRequests }));
      rssByTenth.push(Math.round(rssMiB(server.pid)));
    }
    const seconds = (performance.now() - started) / 1000;
    const rssAfter = rssMiB(server.pid);
    await new Promise((r) => setTimeout(r, smoke ? 500 : 5_000));
    const row: SoakRow = {
      server: kind.name,
      leads: soakLeads,
      seconds: +seconds.toFixed(1),
      created: sum(legs.map(createdCount)),
      stored: 0,
      rssByTenthMiB: rssByTenth,
      peakRssMiB: Math.round(peakRssMiB(server.pid)),
      rssAfterMiB: Math.round(rssAfter),
      rssIdleMiB: Math.round(rssMiB(server.pid)),
    };
    await server.stop();
    row.stored = storedLeads(kind.store!(dir), row.created);
    rmSync(dir, { recursive: true, force: true });
    if (kind === baseline) base = row;
    else if (base) row.ratio = { peakRss: +(row.peakRssMiB / base.peakRssMiB).toFixed(2), rssIdle: +(row.rssIdleMiB / base.rssIdleMiB).toFixed(2) };
    soakRows.push(row);
  }
}

function printTable(header: string[], table: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log([line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...table.map(line)].join('\n'));
}
if (rows.length > 0) {
  printTable(
    ['case', 'server', 'conc.', 'req/s', 'runs', 'p50 ms', 'p99 ms', 'peak RSS MiB', 'start ms', '201s stored', 'ratio req/s', 'ratio p99'],
    rows.map((r) =>
      [
        r.case,
        r.server,
        r.concurrency,
        r.requestsPerSecond,
        r.runs.length > 1 ? `${Math.min(...r.runs)}–${Math.max(...r.runs)}` : '',
        r.p50Ms,
        r.p99Ms,
        r.peakRssMiB,
        r.startupMs,
        r.created === undefined ? '' : `${r.stored}/${r.created}`,
        r.ratio?.throughput ?? '',
        r.ratio?.p99 ?? '',
      ].map(String),
    ),
  );
}

/** The unpinned case against the bare platform, and BENCH_WITHOUT's variants against the full service of the same run. */
const unpinnedRows = rows.filter((r) => r.case === UNPINNED && r.ratioToBare);
if (unpinnedRows.length > 0) {
  console.log(`\n${UNPINNED}: against the bare platform (node:http, JSON.parse, one durable SQLite insert per request)`);
  printTable(
    ['server', 'conc.', 'req/s', 'p99 ms', 'cores', 'req/s / bare platform', 'p99 / bare platform'],
    unpinnedRows.map((r) =>
      [
        r.server,
        r.concurrency,
        r.requestsPerSecond,
        r.p99Ms,
        `${r.cores.server} (load ${r.cores.loadGenerator})`,
        r.ratioToBare!.throughput,
        r.ratioToBare!.p99,
      ].map(String),
    ),
  );
}
const withoutRows = rows
  .filter((r) => r.without)
  .map((r) => {
    const full = rows.find((f) => f.case === r.case && f.concurrency === r.concurrency && f.server === 'service')!;
    return {
      server: r.server,
      concurrency: r.concurrency,
      without: r.without!,
      requestsPerSecond: r.requestsPerSecond,
      p99Ms: r.p99Ms,
      ratio: ratioOf(r, full),
    };
  });
if (withoutRows.length > 0) {
  console.log(`\nwhat each write of a lead costs (${UNPINNED}): the service on a store without it, against the full service of the same run`);
  printTable(
    ['server', 'conc.', 'req/s', 'p99 ms', 'req/s / service', 'p99 / service'],
    withoutRows.map((r) => [r.server, r.concurrency, r.requestsPerSecond, r.p99Ms, r.ratio.throughput, r.ratio.p99].map(String)),
  );
  if (leadsWrites && withoutNames.includes('all'))
    console.log(`'all' dropped: ${leadsWrites.droppable.map((w) => `${w.name} (${w.type})`).join(', ')}; kept: ${leadsWrites.kept.join(', ')}`);
  console.log("each variant's store was read after every run: none of what it lacked was back");
}

if (besideRows.length > 0) {
  console.log(
    `\n${BESIDE}: ${BESIDE_CUSTOMERS} customers (an address a request, keep-alive) alone, then beside one client at ${BESIDE_FLOOD} in flight (keep-alive)`,
  );
  printTable(
    [
      'server',
      'cores',
      'alone leads/s',
      'alone p99 ms',
      'beside leads/s',
      'beside p99 ms',
      'runs',
      'ratio leads/s',
      'ratio p99',
      'flood req/s',
      'flood 429/s',
      'refused',
      'server busy (cores) alone, beside',
      '201s stored',
    ],
    besideRows.map((r) =>
      [
        r.server,
        r.pinned ? `${r.cores.server} (load ${r.cores.loadGenerator})` : `${r.cores.server}, unpinned`,
        r.alone.requestsPerSecond,
        r.alone.p99Ms,
        r.beside.requestsPerSecond,
        r.beside.p99Ms,
        r.runs.length > 1 ? `${Math.min(...r.runs)}–${Math.max(...r.runs)}` : '',
        r.ratio.throughput,
        r.ratio.p99,
        r.flood.requestsPerSecond,
        r.flood.refusedPerSecond,
        `${(r.flood.refusedShare * 100).toFixed(1)}%`,
        `${r.alone.serverBusy}, ${r.beside.serverBusy}`,
        `${r.stored}/${r.created}`,
      ].map(String),
    ),
  );
}

/**
 * Astro's share, per case and concurrency: what the bare Astro endpoint costs per request over bare
 * Node (the bare Node endpoint, or for GET and the flood the baseline, which is bare Node), and the
 * ratio a service doing exactly the baseline's work would reach inside that pipeline:
 * t_baseline / (t_baseline + t_Astro − t_Node), with t = 1 / (requests/s).
 */
const astroShare = rows
  .filter((r) => r.server === bareAstro.name)
  .map((astro) => {
    const same = rows.filter((r) => r.case === astro.case && r.concurrency === astro.concurrency);
    const base = same[0]!;
    const floor = same.find((r) => r.server === bareNode.name) ?? base;
    const us = (r: Row) => 1e6 / r.requestsPerSecond;
    const astroUs = us(astro) - us(floor);
    return {
      case: astro.case,
      concurrency: astro.concurrency,
      nodeUs: Math.round(us(floor)),
      astroUs: Math.round(astroUs),
      ceiling: +(us(base) / (us(base) + astroUs)).toFixed(2),
    };
  });
if (astroShare.length > 0) {
  console.log('');
  printTable(
    ['case', 'conc.', 'bare Node µs/request', "Astro's pipeline µs/request", "the baseline's work inside Astro: ratio"],
    astroShare.map((a) => [a.case, a.concurrency, a.nodeUs, a.astroUs, a.ceiling].map(String)),
  );
}
if (soakRows.length > 0) {
  console.log('');
  printTable(
    ['soak', 'leads', 'seconds', '201s stored', 'RSS after each tenth MiB', 'peak RSS MiB', 'RSS after MiB', 'RSS idle MiB', 'ratio peak', 'ratio idle'],
    soakRows.map((r) =>
      [
        r.server,
        r.leads,
        r.seconds,
        `${r.stored}/${r.created}`,
        r.rssByTenthMiB.join(' '),
        r.peakRssMiB,
        r.rssAfterMiB,
        r.rssIdleMiB,
        r.ratio?.peakRss ?? '',
        r.ratio?.rssIdle ?? '',
      ].map(String),
    ),
  );
}

/** The office at volume (bench/office/): in a whole run, with --office, and with tiny stores in the smoke. */
const leadRows = rows.filter((r) => r.case === 'lead POST' && r.server === 'service');
const leadRssMiB = leadRows.length > 0 ? Math.max(...leadRows.map((r) => r.peakRssMiB)) : undefined;
const office = officeOnly || smoke || (!soak && (!only || only.includes('office'))) ? await officeBench({ smoke, leadRssMiB }) : undefined;

const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  pinned: pinning,
  durationSeconds: duration,
  warmupSeconds: warmup,
  runsPerRow: repeat,
};
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
const out = join(ROOT, 'bench/results', smoke ? 'smoke.json' : soak ? 'soak.json' : officeOnly ? 'office.json' : 'latest.json');
const without = leadsWrites && { all: leadsWrites, rows: withoutRows };
writeFileSync(
  out,
  JSON.stringify({ date: new Date().toISOString(), machine, rows, beside: besideRows, astroShare, without, soak: soakRows, office, lost }, null, 2),
);
console.log(`\nwritten to ${out}; ${lost === 0 ? 'every 201 of the run is in its store' : `${lost} acknowledged leads are MISSING from the store`}`);
if (lost > 0) process.exitCode = 1;
