/**
 * The office benchmark's stores, built the fast honest way: leads validated and stored through the
 * store's own migrations and intake in large batches (`seedLeads`, as the tests seed theirs), caught
 * submissions through the spam folder's `keepSpam`, and the office's account made with
 * `npm run leads -- user add`. Each lead has its answer-by instant, as the intake gives it, and those
 * older than two days their first contact, as a working office leaves them (`contactFirst`). A store
 * `withinOneDay` holds leads all sent within one local day, two days before it was built (a load
 * test, an import), spread evenly across the day's hours; the office has first contacted those of
 * the day's first half and not yet the others. Each store is kept under bench/results/office-stores/, keyed by the
 * store's migrations (any new index or column builds afresh) and rebuilt after a few days (the caught
 * submissions are days old, and would pass their 14 days); a run measures a copy.
 */
import { createHash, randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerBy } from '../../src/leads/next-step.ts';
import { newReference } from '../../src/leads/reference.ts';
import { purge, purgeCutoffs } from '../../src/leads/retention.ts';
import { toE164UsPhone } from '../../src/leads/phone.ts';
import { DAY_MS } from '../../src/lib/time.ts';
import { localDateInput, nextLocalDay, parseLocalDate } from '../../src/office/local-time.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { promise } from '../../tests/support/fixtures.ts';
import { addUser, STAFF } from '../../tests/support/office.ts';
import { seedLeads } from '../../tests/support/seed.ts';
import { ROOT } from '../serve.ts';
import { readContent } from '../../src/content-check/read.ts';
import type { OfficeClock } from '../../src/office/figures-clock.ts';
import { companyOf } from '../../src/site/from-content.ts';
import { needle, quoteBody, random } from './people.ts';

export interface StoreSpec {
  leads: number;
  spam: number;
  /** Leads past the default retention (730 days), on top of `leads`: what the start-up purge removes. */
  expired?: number;
  /** Every lead sent within one local day (the company's time zone), two days before the build, instead of over 700 days. */
  withinOneDay?: boolean;
}

/** A store of leads sent within one day: the day, and how many of its leads were first contacted and how many wait. */
export interface OneDay {
  from: string;
  to: string;
  contacted: number;
  waiting: number;
}

export interface BuiltStore {
  file: string;
  spec: StoreSpec;
  /** References and name fragments and phone numbers found once in the store (the needles). */
  needles: Array<{ reference: string; fragment: string; phone: string }>;
  /** Other leads' references, for status changes. */
  references: string[];
  /** A store `withinOneDay`: its day, and its leads contacted and waiting. */
  day?: OneDay;
  builtAt: string;
  buildSeconds: number;
  cached: boolean;
}

const DIR = join(ROOT, 'bench/results/office-stores');
/** Changes when the people or the way they are stored change. */
const SEED_VERSION = 5;
const NEEDLES = 5;
/** The leads span the last 700 days; the caught submissions the last 7 days; a store is rebuilt after 5. */
const SPAN_DAYS = 700;
const SPAM_DAYS = 7;
const KEEP_DAYS = 5;

/** The office's clock and the quote form's services, as the content says them (what the service keeps its figures by). */
export function officeClock(): OfficeClock {
  const content = readContent(ROOT);
  return { promise: companyOf(content.company).promise, services: content.quoteForm.services };
}

const schemaKey = () =>
  createHash('sha256')
    .update(JSON.stringify([SEED_VERSION, SQLITE_MIGRATIONS]))
    .digest('hex')
    .slice(0, 12);
const name = (spec: StoreSpec) => `${schemaKey()}-${spec.leads}-${spec.spam}-${spec.expired ?? 0}${spec.withinOneDay ? '-day' : ''}`;

/** The local day (the company's time zone) two days before `now`: when a store `withinOneDay` received its leads. */
function dayTwoDaysBefore(now: number): { from: Date; to: Date } {
  const { timeZone } = promise();
  const from = parseLocalDate(localDateInput(new Date(now - 2 * DAY_MS), timeZone), timeZone)!;
  return { from, to: nextLocalDay(from, timeZone) };
}

/** Copies a store's files (`from` and a `-wal` beside it) to `to`. */
export function copyStore(from: string, to: string): void {
  copyFileSync(from, to);
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${to}-wal`);
}

/**
 * What the server's daily purge has done to a store it has been running on: every lead's duplicate
 * fingerprint older than 24 hours cleared (otherwise the first start-up would clear 100,000 of them,
 * in the background, during the measurements). Leads are kept: the retention given is a century.
 */
const housekeeping = (store: Parameters<typeof purge>[0]) => purge(store, purgeCutoffs(new Date(), 36_500));

async function seed(
  file: string,
  spec: StoreSpec,
  now: number,
  base?: BuiltStore,
): Promise<Omit<BuiltStore, 'file' | 'spec' | 'builtAt' | 'buildSeconds' | 'cached'>> {
  const r = random(spec.leads + spec.spam);
  const at = new Set(Array.from({ length: NEEDLES }, (_, k) => Math.floor((spec.leads * (k + 0.5)) / NEEDLES)));
  const store = openSqliteStore(file);
  const promised = promise();
  try {
    if (base) {
      // A copy of `base`, and leads past retention on top (received 731 to 760 days ago).
      const old = (i: number) => new Date(now - (731 + (29 * i) / spec.expired!) * DAY_MS);
      await seedLeads(store, spec.expired!, { body: (i) => quoteBody(spec.leads + i, r), receivedAt: old, answerBy: (i) => answerBy(old(i), promised) });
      await housekeeping(store);
      await store.keepOfficeClock(officeClock());
      return { needles: base.needles, references: base.references };
    }
    let k = 0;
    const body = (i: number) => (at.has(i) ? quoteBody(i, r, needle(k++)) : quoteBody(i, r));
    const day = spec.withinOneDay ? dayTwoDaysBefore(now) : undefined;
    // Over the last 700 days, or evenly across the hours of one day, oldest first either way.
    const receivedAt = day
      ? (i: number) => new Date(day.from.getTime() + ((i + 0.5) * (day.to.getTime() - day.from.getTime())) / spec.leads)
      : (i: number) => new Date(now - ((spec.leads - i) * SPAN_DAYS * DAY_MS) / spec.leads);
    const references = await seedLeads(store, spec.leads, { body, receivedAt, answerBy: (i) => answerBy(receivedAt(i), promised) });
    const needles = [...at].map((i, n) => ({ reference: references[i]!, fragment: needle(n).fragment, phone: needle(n).phone.replace(/\D/g, '') }));
    for (let i = 0; i < spec.spam; i++) {
      const b = quoteBody(spec.leads + i, r);
      const meta = { receivedVia: '/quote', channel: 'web-form' as const, clientAddress: '198.51.100.7', userAgent: 'bench' };
      const receivedAt = new Date(now - ((spec.spam - i) * SPAM_DAYS * DAY_MS) / spec.spam);
      await store.keepSpam(
        { id: randomUUID(), reference: newReference('quote'), formType: 'quote', receivedAt, reason: 'hidden field filled in', body: b, meta },
        { emailNormalised: String(b.email), phoneE164: toE164UsPhone(String(b.phone)) ?? '' },
      );
    }
    await housekeeping(store);
    // The service's clock and services, as its start-up keeps them: a store kept by them from its first lead.
    await store.keepOfficeClock(officeClock());
    const step = Math.max(1, Math.floor(spec.leads / 200));
    return { needles, references: references.filter((_, i) => !at.has(i)).filter((_, i) => i % step === 0) };
  } finally {
    await store.close();
  }
}

/**
 * What a working office leaves: every lead received before `waitingFrom` (by default two days ago)
 * first contacted by the office's account, seven in eight within 15 minutes to 8 hours of its
 * receipt (in time), the eighth 1 to 20 hours after its answer-by (late), and never after `latest`
 * (by default no bound: a store `withinOneDay` gives now); those older than two weeks done, the
 * others contacted. The leads received since `waitingFrom` wait, some of them past their answer-by.
 * Says how many leads were contacted and how many wait.
 */
function contactFirst(
  file: string,
  now: number,
  { waitingFrom = new Date(now - 2 * DAY_MS), latest }: { waitingFrom?: Date; latest?: Date } = {},
): { contacted: number; waiting: number } {
  const db = new DatabaseSync(file);
  try {
    db.prepare(
      `UPDATE leads SET first_contact_by = :by, status_by = :by,
         first_contact_at = min(CASE WHEN rowid % 8 = 0 THEN strftime('%Y-%m-%dT%H:%M:%fZ', answer_by, '+' || (1 + rowid % 20) || ' hours')
                                ELSE strftime('%Y-%m-%dT%H:%M:%fZ', received_at, '+' || (15 + (rowid * 37) % 465) || ' minutes') END, :latest)
       WHERE received_at < :waiting`,
    ).run({ by: STAFF.email, waiting: waitingFrom.toISOString(), latest: latest?.toISOString() ?? '9999-12-31T23:59:59.999Z' });
    db.prepare(
      `UPDATE leads SET status = CASE WHEN received_at < :fortnight THEN 'done' ELSE 'contacted' END, status_at = first_contact_at
       WHERE first_contact_at IS NOT NULL`,
    ).run({ fortnight: new Date(now - 14 * DAY_MS).toISOString() });
    const count = (where: string) => (db.prepare(`SELECT count(*) AS n FROM leads WHERE ${where}`).get() as { n: number }).n;
    return { contacted: count('first_contact_at IS NOT NULL'), waiting: count("status = 'new'") };
  } finally {
    db.close();
  }
}

/** The store of `spec` (built now, or the one kept from an earlier run), for `copyStore` to copy; `base` is the store an `expired` store adds to. */
export async function builtStore(spec: StoreSpec, base?: BuiltStore): Promise<BuiltStore> {
  mkdirSync(DIR, { recursive: true });
  const file = join(DIR, `${name(spec)}.sqlite`);
  const about = `${file}.json`;
  if (existsSync(file) && existsSync(about)) {
    const kept = JSON.parse(readFileSync(about, 'utf8')) as BuiltStore;
    if (Date.now() - Date.parse(kept.builtAt) < KEEP_DAYS * DAY_MS) return { ...kept, file, cached: true };
  }
  // Stores of other migrations, people or sizes are not kept.
  for (const old of readdirSync(DIR)) if (!old.startsWith(schemaKey())) rmSync(join(DIR, old), { force: true });
  for (const f of [file, `${file}-wal`, `${file}-shm`, about]) rmSync(f, { force: true });
  const started = performance.now();
  const now = Date.now();
  if (base) copyStore(base.file, file);
  const seeded = await seed(file, spec, now, base);
  let day: OneDay | undefined;
  if (!base && spec.withinOneDay) {
    // The office has worked through the day's first half: its leads first contacted, none of them after now; the rest wait.
    const { from, to } = dayTwoDaysBefore(now);
    const counts = contactFirst(file, now, { waitingFrom: new Date((from.getTime() + to.getTime()) / 2), latest: new Date(now) });
    if (counts.contacted === 0 || counts.waiting === 0)
      throw new Error(`a store within one day with ${counts.contacted} leads contacted and ${counts.waiting} waiting`);
    day = { from: from.toISOString(), to: to.toISOString(), ...counts };
  } else if (!base) contactFirst(file, now);
  // The first contacts were written by hand: their working minutes are measured now, as the service's start-up would.
  const store = openSqliteStore(file);
  await store.keepOfficeClock(officeClock()).finally(() => store.close());
  if (!base) await addUser(`file:${file}`, STAFF.email, STAFF.password);
  const built: BuiltStore = {
    file,
    spec,
    ...seeded,
    ...(day && { day }),
    builtAt: new Date().toISOString(),
    buildSeconds: +((performance.now() - started) / 1000).toFixed(1),
    cached: false,
  };
  writeFileSync(about, JSON.stringify(built, null, 2));
  return built;
}
