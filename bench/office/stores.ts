/**
 * The office benchmark's stores, built the fast honest way: leads validated and stored through the
 * store's own migrations and intake in large batches (`seedLeads`, as the tests seed theirs), caught
 * submissions through the spam folder's `keepSpam`, and the office's account made with
 * `npm run leads -- user add`. Each lead has its answer-by instant, as the intake gives it, and those
 * older than two days their first contact, as a working office leaves them (`contactFirst`). Each store is kept under bench/results/office-stores/, keyed by the
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
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { promise } from '../../tests/support/fixtures.ts';
import { addUser, STAFF } from '../../tests/support/office.ts';
import { seedLeads } from '../../tests/support/seed.ts';
import { ROOT } from '../serve.ts';
import { needle, quoteBody, random } from './people.ts';

export interface StoreSpec {
  leads: number;
  spam: number;
  /** Leads past the default retention (730 days), on top of `leads`: what the start-up purge removes. */
  expired?: number;
}

export interface BuiltStore {
  file: string;
  spec: StoreSpec;
  /** References and name fragments and phone numbers found once in the store (the needles). */
  needles: Array<{ reference: string; fragment: string; phone: string }>;
  /** Other leads' references, for status changes. */
  references: string[];
  builtAt: string;
  buildSeconds: number;
  cached: boolean;
}

const DIR = join(ROOT, 'bench/results/office-stores');
/** Changes when the people or the way they are stored change. */
const SEED_VERSION = 4;
const NEEDLES = 5;
/** The leads span the last 700 days; the caught submissions the last 7 days; a store is rebuilt after 5. */
const SPAN_DAYS = 700;
const SPAM_DAYS = 7;
const KEEP_DAYS = 5;

const schemaKey = () =>
  createHash('sha256')
    .update(JSON.stringify([SEED_VERSION, SQLITE_MIGRATIONS]))
    .digest('hex')
    .slice(0, 12);
const name = (spec: StoreSpec) => `${schemaKey()}-${spec.leads}-${spec.spam}-${spec.expired ?? 0}`;

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

async function seed(file: string, spec: StoreSpec, base?: BuiltStore): Promise<Omit<BuiltStore, 'file' | 'spec' | 'builtAt' | 'buildSeconds' | 'cached'>> {
  const now = Date.now();
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
      return { needles: base.needles, references: base.references };
    }
    let k = 0;
    const body = (i: number) => (at.has(i) ? quoteBody(i, r, needle(k++)) : quoteBody(i, r));
    const receivedAt = (i: number) => new Date(now - ((spec.leads - i) * SPAN_DAYS * DAY_MS) / spec.leads);
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
    const step = Math.max(1, Math.floor(spec.leads / 200));
    return { needles, references: references.filter((_, i) => !at.has(i)).filter((_, i) => i % step === 0) };
  } finally {
    await store.close();
  }
}

/**
 * What a working office leaves: every lead received more than two days ago first contacted by the
 * office's account, seven in eight within 15 minutes to 8 hours of its receipt (in time), the eighth
 * 1 to 20 hours after its answer-by (late); those older than two weeks done, the others contacted.
 * The last two days' leads wait, some of them past their answer-by.
 */
function contactFirst(file: string, now: number): void {
  const db = new DatabaseSync(file);
  try {
    db.prepare(
      `UPDATE leads SET first_contact_by = :by, status_by = :by,
         first_contact_at = CASE WHEN rowid % 8 = 0 THEN strftime('%Y-%m-%dT%H:%M:%fZ', answer_by, '+' || (1 + rowid % 20) || ' hours')
                            ELSE strftime('%Y-%m-%dT%H:%M:%fZ', received_at, '+' || (15 + (rowid * 37) % 465) || ' minutes') END
       WHERE received_at < :waiting`,
    ).run({ by: STAFF.email, waiting: new Date(now - 2 * DAY_MS).toISOString() });
    db.prepare(
      `UPDATE leads SET status = CASE WHEN received_at < :fortnight THEN 'done' ELSE 'contacted' END, status_at = first_contact_at
       WHERE first_contact_at IS NOT NULL`,
    ).run({ fortnight: new Date(now - 14 * DAY_MS).toISOString() });
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
  if (base) copyStore(base.file, file);
  const seeded = await seed(file, spec, base);
  if (!base) contactFirst(file, Date.now());
  if (!base) await addUser(`file:${file}`, STAFF.email, STAFF.password);
  const built: BuiltStore = {
    file,
    spec,
    ...seeded,
    builtAt: new Date().toISOString(),
    buildSeconds: +((performance.now() - started) / 1000).toFixed(1),
    cached: false,
  };
  writeFileSync(about, JSON.stringify(built, null, 2));
  return built;
}
