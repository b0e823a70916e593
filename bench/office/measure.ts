/**
 * The office's pages on one store, over HTTP with a signed-in session, as its browser asks for them:
 * each operation repeated (after two unmeasured ones) and its median kept; the CSV export of
 * everything timed whole, with the server's resident memory sampled meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { officePost, signedIn } from '../../tests/support/office.ts';
import { median, rssMiB, serviceArgs, serviceEnv, startProcess } from '../serve.ts';
import { copyStore, officeClock, type BuiltStore } from './stores.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { weekStarts } from '../../src/office/overview.ts';
import { promiseChartWeeks } from '../../src/office/promise-chart.ts';
import { waitingGroups } from '../../src/office/promise-words.ts';
import { localDateInput, parseLocalDate } from '../../src/office/local-time.ts';
import { DatabaseSync } from 'node:sqlite';
import { DAY_MS } from '../../src/lib/time.ts';
import { STAFF } from '../../tests/support/office.ts';

/** The services the quote form offers, as the chart asks for them (`content/forms/quote.mdx`). */
const SERVICES = officeClock().services;

/** The median milliseconds of `runs` runs of `work` (after two unmeasured ones). */
async function medianOf(runs: number, work: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const started = performance.now();
    await work();
    if (i >= 2) ms.push(performance.now() - started);
  }
  return +median(ms).toFixed(2);
}

/** The overview's operations on the store copied into `dir` (the service stopped): the last page over HTTP was timed before. */
async function overviewOnStore(
  file: string,
  repeat: number,
): Promise<Pick<Record<OverviewOperation, number>, 'counts by status (store)' | 'leads per week (store)'> & Record<PromiseOperation, number>> {
  const store = openSqliteStore(file);
  try {
    const weeks = weekStarts(new Date(), 'America/Los_Angeles');
    return {
      'counts by status (store)': await medianOf(repeat, () => store.statusCounts(weeks.at(-2)!, new Date())),
      'leads per week (store)': await medianOf(repeat, () => store.leadsPerWeek(weeks, SERVICES)),
      'promise chart (store)': await medianOf(repeat, () => store.promiseCounts(weeks, new Date())),
      'promise chart (store and figures)': await medianOf(repeat, async () =>
        promiseChartWeeks(weeks, await store.promiseCounts(weeks, new Date()), 'America/Los_Angeles'),
      ),
      'waiting leads by urgency (store)': await medianOf(repeat, () => store.waitingCounts(waitingGroups(new Date(), officeClock().promise).bounds)),
    };
  } finally {
    await store.close();
  }
}

/**
 * The team's load (issue 55, item 4), on a store of leads sent within one day, the service stopped:
 * the same work handed out at every size (40 waiting leads held by the office's account, 20 by a
 * colleague, 20 first contacted by the account that day), then each account's figures (`teamLoad`)
 * read `repeat` times, 100 reads each: the median, in microseconds a read. Read as of the next day,
 * with the clock handed in: the store's own first contacts (up to its build, where `contactFirst`
 * stops them) are all before that day began, so both sizes hold the same work. What it reads grows
 * with what each person holds and the day's first contacts, not with the leads in the store.
 */
async function teamLoadOnStore(file: string, repeat: number): Promise<number> {
  const zone = 'America/Los_Angeles';
  const now = new Date(Date.now() + DAY_MS);
  const db = new DatabaseSync(file);
  try {
    const colleague = 'colleague@example.com';
    db.prepare("INSERT OR IGNORE INTO office_users (email, password_hash, created_at, role) VALUES (?, 'bench', ?, 'staff')").run(colleague, now.toISOString());
    const waiting = (n: number, order: string) => `SELECT id FROM leads WHERE status = 'new' AND owner IS NULL ORDER BY received_at ${order} LIMIT ${n}`;
    db.prepare(`UPDATE leads SET owner = ? WHERE id IN (${waiting(40, 'DESC')})`).run(STAFF.email);
    db.prepare(`UPDATE leads SET owner = ? WHERE id IN (${waiting(20, 'DESC')})`).run(colleague);
    db.prepare(
      `UPDATE leads SET status = 'contacted', status_by = :by, status_at = :at, first_contact_by = :by, first_contact_at = :at WHERE id IN (${waiting(20, 'ASC')})`,
    ).run({ by: STAFF.email, at: new Date(now.getTime() - 60_000).toISOString() });
  } finally {
    db.close();
  }
  const store = openSqliteStore(file);
  try {
    const todayBegan = parseLocalDate(localDateInput(now, zone), zone)!;
    const people = await store.teamLoad(todayBegan, now);
    const mine = people.find((p) => p.email === STAFF.email);
    if (mine?.waiting !== 40 || mine.firstContacted !== 20) throw new Error(`the team's load read ${JSON.stringify(people)}`);
    // A few dozen microseconds a read: timed 100 reads at a time, and given in microseconds a read.
    const per100 = await medianOf(repeat, async () => {
      for (let i = 0; i < 100; i++) await store.teamLoad(todayBegan, now);
    });
    return +(per100 * 10).toFixed(1);
  } finally {
    await store.close();
  }
}

/** The origin the benchmark's service is configured with (SITE_URL): the office's forms must come from it. */
const SITE = 'http://localhost:4321';
export const OPERATIONS = [
  // `/office`: the waiting leads by urgency, the counts, the twelve weeks and the promise chart.
  'inbox, first page (waiting, by urgency)',
  // Every lead, newest first, its second page (`?view=all&page=1`): what "the next page" measured before the inbox opened on urgency.
  'inbox, next page (every lead)',
  'search by reference',
  'search by name',
  'search by phone',
  'status change',
  'spam folder',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/**
 * The inbox at a glance (issue 38's overview), timed beside the targets, without a threshold of the
 * issue's: the last page of the inbox over HTTP (an offset that skips every newer lead), a filtered
 * view (new quote requests, as the counts' link and the filters ask for it), and, on
 * the store itself, the counts by status and the twelve weeks' chart that every inbox page asks for.
 */
export const OVERVIEW = ['inbox, the last page', 'inbox, filtered', 'counts by status (store)', 'leads per week (store)'] as const;
export type OverviewOperation = (typeof OVERVIEW)[number];

/**
 * Is the promise kept? (issue 46, item 2), on the store itself: the twelve weeks' leads first
 * contacted or late (`promiseCounts`), and with them the chart's figures worked out as the page does
 * (in time, late, the median in working hours: `promiseChartWeeks`). The page's whole cost is in the
 * first page's row above. With them, the waiting leads counted in the inbox's groups by urgency
 * (late, due today, due on the next working day, later: `waitingCounts`, issue 55).
 */
export const PROMISE = ['promise chart (store)', 'promise chart (store and figures)', 'waiting leads by urgency (store)'] as const;
export type PromiseOperation = (typeof PROMISE)[number];

export interface StoreFigures {
  leads: number;
  spam: number;
  /** Median milliseconds of each operation, and its runs' range. */
  medianMs: Record<Operation, number>;
  rangeMs: Record<Operation, [number, number]>;
  /** Median milliseconds of the overview's operations. */
  overviewMs: Record<OverviewOperation, number>;
  /** Median milliseconds of the promise chart's operations. */
  promiseMs: Record<PromiseOperation, number>;
  export: { medianMs: number; bytes: number; rssGrowthMiB: number; rssBeforeMiB: number };
  /** The service's resident memory after every operation and export above. */
  rssAfterMiB: number;
  /** This run's start-up (one sample; `startupMs` takes medians). */
  startupMs: number;
}

async function timed(request: () => Promise<Response>, expect: number, what: string): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const res = await request();
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== expect) throw new Error(`${what}: ${res.status}, not ${expect}: ${text.slice(0, 300)}`);
  return { ms, text };
}

/** The export, read as fast as this process reads, without compression (the store and the CSV, not gzip): its time, size and the server's RSS growth. */
async function exportOnce(url: string, cookie: string, pid: number) {
  const before = rssMiB(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 10);
  const started = performance.now();
  try {
    // Every lead (`view=all`): without it the inbox, and so its download, is the waiting leads alone.
    const res = await fetch(`${url}/office/export.csv?view=all`, { headers: { Cookie: cookie, 'Accept-Encoding': 'identity' } });
    if (res.status !== 200) throw new Error(`export: ${res.status}`);
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
    return { ms: performance.now() - started, bytes, growth: Math.max(peak, rssMiB(pid)) - before, before };
  } finally {
    clearInterval(sampler);
  }
}

/** Starts the service on a copy of `store`, signs in, and measures every operation `repeat` times and the export `exports` times. */
export async function measureOffice(store: BuiltStore, repeat: number, exports: number): Promise<StoreFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-office-'));
  copyStore(store.file, join(dir, 'leads.sqlite'));
  const server = await startProcess(serviceArgs, serviceEnv(dir), join(dir, 'server.log'));
  try {
    const { url } = server;
    const cookie = await signedIn(url, undefined, { Origin: SITE });
    const get = (path: string) => () => fetch(`${url}${path}`, { headers: { Cookie: cookie } });
    const post = (path: string, fields: Record<string, string>) => () => officePost(url, path, fields, cookie, { Origin: SITE });
    // A search is posted once (kept with the session) and its page asked for again and again: the page is the query.
    const searched = async (q: string) => {
      const res = await post('/office/search', { list: 'inbox', q })();
      if (res.status !== 303) throw new Error(`search: ${res.status}`);
      return res.headers.get('location')!;
    };
    const needles = store.needles;
    const pages = async (q: (n: (typeof needles)[number]) => string) =>
      Promise.all(needles.map(async (n) => ({ path: await searched(q(n)), reference: n.reference })));
    const searches = {
      // A reference matches from its start: its first six signs, as read out on a call.
      'search by reference': await pages((n) => n.reference.slice(0, 6)),
      'search by name': await pages((n) => n.fragment),
      'search by phone': await pages((n) => n.phone),
    };
    let changes = 0;
    const one = async (op: Operation, i: number): Promise<number> => {
      if (op === 'inbox, first page (waiting, by urgency)') return (await timed(get('/office'), 200, op)).ms;
      if (op === 'inbox, next page (every lead)') return (await timed(get('/office?view=all&page=1'), 200, op)).ms;
      if (op === 'spam folder') return (await timed(get('/office/spam'), 200, op)).ms;
      if (op === 'status change') {
        const reference = store.references[changes++ % store.references.length]!;
        const fields = { reference, status: changes % 2 ? 'contacted' : 'done', back: '/office' };
        return (await timed(post('/office/status', fields), 303, op)).ms;
      }
      const page = searches[op][i % needles.length]!;
      const { ms, text } = await timed(get(page.path), 200, op);
      // The customer looked for is on the page: the search found them.
      if (!text.includes(page.reference)) throw new Error(`${op} did not find ${page.reference}`);
      return ms;
    };
    const medianMs = {} as StoreFigures['medianMs'];
    const rangeMs = {} as StoreFigures['rangeMs'];
    for (const op of OPERATIONS) {
      for (let i = 0; i < 2; i++) await one(op, i);
      const runs: number[] = [];
      for (let i = 0; i < repeat; i++) runs.push(await one(op, i));
      medianMs[op] = +median(runs).toFixed(2);
      rangeMs[op] = [+Math.min(...runs).toFixed(2), +Math.max(...runs).toFixed(2)];
    }
    // The last page of every lead: 50 leads a page, newest first (the inbox opens on the waiting ones, by urgency).
    const last = Math.floor((store.spec.leads - 1) / 50);
    const lastPageMs = await medianOf(repeat, async () => {
      const { text } = await timed(get(`/office?view=all&page=${last}`), 200, 'the last page');
      if (!text.includes(`of ${store.spec.leads.toLocaleString('en-US')} leads.`)) throw new Error('the last page does not say how many leads there are');
    });
    // A filtered view: the new quote requests, as a tap on "new" with the form chosen asks for it.
    const filteredMs = await medianOf(repeat, async () => void (await timed(get('/office?form=quote&status=new'), 200, 'a filtered view')));
    const runs = [];
    for (let i = 0; i < exports; i++) runs.push(await exportOnce(url, cookie, server.pid));
    const exported = {
      medianMs: Math.round(median(runs.map((r) => r.ms))),
      bytes: runs[0]!.bytes,
      rssGrowthMiB: +Math.max(...runs.map((r) => r.growth)).toFixed(1),
      rssBeforeMiB: Math.round(runs[0]!.before),
    };
    const startup = Math.round(server.startupMs);
    // What the service holds once the office has done all of the above (issue 41, target 4).
    const rssAfterMiB = Math.round(rssMiB(server.pid));
    await server.stop();
    const onStore = await overviewOnStore(join(dir, 'leads.sqlite'), repeat);
    const overviewMs = {
      'inbox, the last page': lastPageMs,
      'inbox, filtered': filteredMs,
      'counts by status (store)': onStore['counts by status (store)'],
      'leads per week (store)': onStore['leads per week (store)'],
    };
    const promiseMs = {
      'promise chart (store)': onStore['promise chart (store)'],
      'promise chart (store and figures)': onStore['promise chart (store and figures)'],
      'waiting leads by urgency (store)': onStore['waiting leads by urgency (store)'],
    };
    return { leads: store.spec.leads, spam: store.spec.spam, medianMs, rangeMs, overviewMs, promiseMs, export: exported, startupMs: startup, rssAfterMiB };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The office's first page on a store of leads sent within one day, and the overview's reads on the store itself. */
export interface FirstPageFigures {
  leads: number;
  spam: number;
  /** The day, and its leads contacted and waiting (`BuiltStore.day`). */
  day: NonNullable<BuiltStore['day']>;
  /** `/office`, the waiting leads by urgency with the counts, the twelve weeks and the promise chart: median and range. */
  firstPageMs: number;
  firstPageRangeMs: [number, number];
  /** The counts by status and the twelve weeks, read on the store. */
  overviewMs: Pick<Record<OverviewOperation, number>, 'counts by status (store)' | 'leads per week (store)'>;
  promiseMs: Record<PromiseOperation, number>;
  /** The team's load read on the store, the same work handed out at every size (`teamLoadOnStore`): microseconds a read. */
  teamLoadUs: number;
  startupMs: number;
}

/**
 * The office's first page (`GET /office`, 'inbox, first page (waiting, by urgency)') on a copy of
 * `store`, signed in, `repeat` times after two unmeasured ones; then, the service stopped, the
 * overview's reads on the store itself (the counts, the twelve weeks, the promise chart).
 */
export async function measureFirstPage(store: BuiltStore, repeat: number): Promise<FirstPageFigures> {
  if (!store.day) throw new Error('measureFirstPage: a store of leads sent within one day is expected');
  const dir = mkdtempSync(join(tmpdir(), 'bench-office-day-'));
  copyStore(store.file, join(dir, 'leads.sqlite'));
  const server = await startProcess(serviceArgs, serviceEnv(dir), join(dir, 'server.log'));
  try {
    const cookie = await signedIn(server.url, undefined, { Origin: SITE });
    const op: Operation = 'inbox, first page (waiting, by urgency)';
    const runs: number[] = [];
    for (let i = 0; i < repeat + 2; i++) {
      const { ms } = await timed(() => fetch(`${server.url}/office`, { headers: { Cookie: cookie } }), 200, op);
      if (i >= 2) runs.push(ms);
    }
    const startup = Math.round(server.startupMs);
    await server.stop();
    const onStore = await overviewOnStore(join(dir, 'leads.sqlite'), repeat);
    const teamLoadUs = await teamLoadOnStore(join(dir, 'leads.sqlite'), repeat);
    return {
      leads: store.spec.leads,
      spam: store.spec.spam,
      day: store.day,
      firstPageMs: +median(runs).toFixed(2),
      firstPageRangeMs: [+Math.min(...runs).toFixed(2), +Math.max(...runs).toFixed(2)],
      overviewMs: { 'counts by status (store)': onStore['counts by status (store)'], 'leads per week (store)': onStore['leads per week (store)'] },
      promiseMs: {
        'promise chart (store)': onStore['promise chart (store)'],
        'promise chart (store and figures)': onStore['promise chart (store and figures)'],
        'waiting leads by urgency (store)': onStore['waiting leads by urgency (store)'],
      },
      teamLoadUs,
      startupMs: startup,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds from the spawn of `npm start`'s command to its first answer to `GET /api/v1`, on a copy of `store` (none: an empty store), `times` times: the median. */
export async function startupMs(store: BuiltStore | undefined, times: number): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < times; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
    if (store) copyStore(store.file, join(dir, 'leads.sqlite'));
    const server = await startProcess(serviceArgs, serviceEnv(dir), join(dir, 'server.log'));
    runs.push(server.startupMs);
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return Math.round(median(runs));
}
