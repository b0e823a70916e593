/**
 * Attempts (issue 55, item 3) and the spreadsheet that checks the promise (item 8), on SQLite and
 * PostgreSQL alike: a call, text or e-mail that reached nobody is kept with its lead (who, when, how),
 * which stays New with no first contact; the inbox gives each lead its count and last attempt; each
 * attempt is one line of the audit trail; the CSV's new columns (answer-by, first contact, in time or
 * late, attempts) come after the old ones, which keep their names and order; and the attempts go with
 * their lead, deleted on request or purged past retention. /privacy names them.
 */
import { parse } from 'csv-parse/sync';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { deletePerson, personOf, purge, purgeCutoffs } from '../../src/leads/retention.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { lastAttemptWords, offeredWays, recordAttempt } from '../../src/office/attempts.ts';
import { exportChunks, exportPeriod, promiseKept } from '../../src/office/export.ts';
import { changeStatus } from '../../src/office/status.ts';
import { shortTime } from '../../src/office/local-time.ts';
import { heldChangeWords, isHeldPath } from '../../src/office/held-change.ts';
import { PRIVACY_COLUMNS } from '../../src/store/privacy-map.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import type { Store } from '../../src/store/index.ts';
import { documents } from '../support/documents.ts';
import { quote, serviceArea } from '../support/fixtures.ts';
import { STORE_KINDS } from '../support/store-kinds.ts';

const HASH = 'scrypt$1$1$1$AA==$AA==';
const BOSS = 'boss@example.com';
const HELPER = 'helper@example.com';
const ZONE = 'America/Los_Angeles';
/** Received Tuesday 24 November 2026, 9 am in Portland; promised an answer by Wednesday 9 am. */
const AT = new Date('2026-11-24T17:00:00Z');
const ANSWER_BY = new Date('2026-11-25T17:00:00Z');
const hours = (n: number) => new Date(AT.getTime() + n * 3_600_000);

const NEW_COLUMNS = [`Answer by (${ZONE} time)`, `First contact (${ZONE} time)`, 'First contact by', 'In time or late', 'Attempts'];

async function stored(store: Store, email: string, receivedAt = AT, answerBy = ANSWER_BY): Promise<string> {
  const v = validateLead(quote({ email }));
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now: receivedAt };
  const outcome = await store.submit({ ...toLeadRecord(v.lead, meta, serviceArea()), answerBy: answerBy.toISOString() }, undefined);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.receipt.reference;
}

/** The spreadsheet of every lead at `now`, as rows of named cells. */
async function spreadsheet(store: Store, now: Date): Promise<{ header: string[]; rows: Array<Record<string, string>> }> {
  let text = '';
  for await (const chunk of exportChunks(store, 'csv', {}, ZONE, { leads: 0 }, now)) text += chunk;
  const [header, ...rows] = parse(text, { bom: true }) as string[][];
  return { header: header!, rows: rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!]))) };
}

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`attempts on ${kind.name}`, () => {
    let store: Store;
    let sql: (statement: string) => Promise<void>;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, sql, cleanup } = await kind.open());
      await store.saveUser(BOSS, HASH, AT, undefined, 'owner');
      await store.saveUser(HELPER, HASH, AT, undefined, 'staff');
    });
    afterAll(() => cleanup());

    const lead = async (reference: string) => (await store.inbox({ reference, limit: 1, offset: 0 }))[0]!;
    const lines = async (about: string) =>
      (await store.recent(1000))
        .reverse()
        .filter((e) => e.detail.includes(about))
        .map((e) => `${e.actor} ${e.action}: ${e.detail}`);
    /** Fails unless the lead with id `leadId` has exactly `n` attempts kept (the statement breaks a check otherwise). */
    const attemptRows = (leadId: string, n: number) =>
      sql(`CREATE TEMP TABLE counted (n INTEGER CHECK (n = ${n})); INSERT INTO counted SELECT COUNT(*) FROM lead_attempts WHERE lead_id = '${leadId}';`);

    it('records an attempt in one step: the lead stays New, with no first contact, and the inbox shows its count and the last', async () => {
      const reference = await stored(store, 'tried.once@example.com');
      const untried = await stored(store, 'never.tried@example.com');
      expect(await recordAttempt(store, reference, 'text', HELPER, hours(1))).toEqual({ kind: 'recorded' });
      expect(await recordAttempt(store, reference, 'call', BOSS, hours(2))).toEqual({ kind: 'recorded' });
      const tried = await lead(reference);
      expect(tried).toMatchObject({ status: 'new', statusBy: undefined, statusAt: undefined });
      expect(tried.firstContact).toBeUndefined();
      expect(tried.attempts).toEqual({ count: 2, last: { at: hours(2), by: BOSS, way: 'call' } });
      expect(lastAttemptWords(tried.attempts!, ZONE)).toBe(`Tried by phone, ${shortTime(hours(2), ZONE)}, by ${BOSS}; nobody answered (2 tries so far).`);
      // The inbox's list (the waiting leads by urgency): each lead with its own, a lead never tried with none.
      const listed = await store.inbox({ urgent: true, limit: 50, offset: 0 });
      expect(listed.find((i) => i.lead.reference === reference)!.attempts?.count).toBe(2);
      expect(listed.find((i) => i.lead.reference === untried)!.attempts).toBeUndefined();
      // Still waiting: counted as waiting, not as contacted.
      expect((await store.statusCounts(AT, AT)).contacted).toBe(0);
      // One audit line each, saying who tried, how, and that nobody answered.
      expect(await lines(reference)).toEqual([
        `${HELPER} recorded an attempt: Texted ${reference}: no answer.`,
        `${BOSS} recorded an attempt: Called ${reference}: no answer.`,
      ]);
    });

    it('refuses an attempt on a lead that is not there, writing nothing', async () => {
      expect(await recordAttempt(store, 'Q-ZZZZ-ZZ', 'email', HELPER, AT)).toEqual({ kind: 'no such lead' });
      expect(await lines('Q-ZZZZ-ZZ')).toEqual([]);
    });

    it('a first contact after attempts is the status change, not an attempt, and is in time by it', async () => {
      const reference = await stored(store, 'tried.then.reached@example.com');
      await recordAttempt(store, reference, 'email', HELPER, hours(1));
      expect((await lead(reference)).firstContact).toBeUndefined();
      await changeStatus(store, { reference, status: 'contacted' }, BOSS, hours(3));
      expect(await lead(reference)).toMatchObject({ status: 'contacted', firstContact: { at: hours(3), by: BOSS }, attempts: { count: 1 } });
    });

    it('puts the answer-by, the first contact, in time or late, and the attempts in columns after the old ones', async () => {
      const waiting = await stored(store, 'sheet.waiting@example.com');
      const inTime = await stored(store, 'sheet.in.time@example.com');
      const late = await stored(store, 'sheet.late@example.com');
      await recordAttempt(store, waiting, 'call', HELPER, hours(1));
      await recordAttempt(store, waiting, 'text', HELPER, hours(2));
      await recordAttempt(store, waiting, 'email', HELPER, hours(3));
      await changeStatus(store, { reference: inTime, status: 'contacted' }, HELPER, hours(4));
      await changeStatus(store, { reference: late, status: 'done' }, BOSS, hours(30));

      // Before the answer-by: the waiting lead is neither in time nor late yet.
      const before = await spreadsheet(store, hours(5));
      // The old columns keep their names and order (tests/e2e/office-export-delete.browser.test.ts lists them all): the new ones follow the last.
      expect(before.header.slice(0, 3)).toEqual(['Reference', `Received (${ZONE} time)`, 'Form']);
      expect(before.header.slice(-6)).toEqual(['Window of days', ...NEW_COLUMNS]);
      const row = (sheet: typeof before, reference: string) => sheet.rows.find((r) => r.Reference === reference)!;
      expect(row(before, waiting)).toMatchObject({
        [`Answer by (${ZONE} time)`]: '2026-11-25 09:00',
        [`First contact (${ZONE} time)`]: '',
        'First contact by': '',
        'In time or late': '',
        Attempts: '3',
        Status: 'New',
      });
      expect(row(before, inTime)).toMatchObject({
        [`First contact (${ZONE} time)`]: '2026-11-24 13:00',
        'First contact by': HELPER,
        'In time or late': 'In time',
        Attempts: '0',
      });
      expect(row(before, late)).toMatchObject({ [`First contact (${ZONE} time)`]: '2026-11-25 15:00', 'First contact by': BOSS, 'In time or late': 'Late' });
      // Past its answer-by and still waiting: late, attempts or not.
      expect(row(await spreadsheet(store, hours(25)), waiting)['In time or late']).toBe('Late');
    });

    it('erases the attempts with their lead, on request and by the retention purge', async () => {
      const email = 'tried.then.erased@example.com';
      const reference = await stored(store, email);
      await recordAttempt(store, reference, 'call', HELPER, hours(1));
      const id = (await lead(reference)).lead.id;
      await attemptRows(id, 1);
      await expect(attemptRows(id, 0)).rejects.toThrow();
      const removed = await deletePerson(store, personOf('email', email)!, { dryRun: false });
      expect(removed.leads).toBe(1);
      await attemptRows(id, 0);
      // The audit line stays, without the reference of a lead deleted on request.
      expect(await lines(reference)).toEqual([]);

      const old = new Date(Date.now() - 800 * 86_400_000);
      const purged = await stored(store, 'tried.long.ago@example.com', old, new Date(old.getTime() + 86_400_000));
      await recordAttempt(store, purged, 'text', HELPER, new Date(old.getTime() + 3_600_000));
      const purgedId = (await lead(purged)).lead.id;
      await attemptRows(purgedId, 1);
      expect((await purge(store, purgeCutoffs(new Date(), 730))).leads).toBe(1);
      await attemptRows(purgedId, 0);
    });
  });
}

describe('SQLite: attempts erased to the byte', () => {
  it('leaves no byte of an attempt in the file or its write-ahead log once its lead is deleted on request, or purged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attempts-'));
    const path = join(dir, 'leads.sqlite');
    const store = openSqliteStore(path);
    try {
      /** Whether the bytes of `text` are still in the store's file or its log. */
      const kept = (text: string) => Buffer.concat([path, `${path}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f))).includes(Buffer.from(text));
      const email = 'erased.to.the.byte@example.com';
      const reference = await stored(store, email);
      const id = (await store.inbox({ reference, limit: 1, offset: 0 }))[0]!.lead.id;
      await recordAttempt(store, reference, 'text', HELPER, hours(1));
      expect(kept(id)).toBe(true);
      // The attempt's row and its index entry held the lead's id: both zeroed with the lead (the audit line keeps who and when, as for a note).
      await deletePerson(store, personOf('email', email)!, { dryRun: false });
      expect(kept(id)).toBe(false);

      const old = new Date(Date.now() - 800 * 86_400_000);
      const purged = await stored(store, 'purged.to.the.byte@example.com', old, new Date(old.getTime() + 86_400_000));
      const purgedId = (await store.inbox({ reference: purged, limit: 1, offset: 0 }))[0]!.lead.id;
      await recordAttempt(store, purged, 'call', HELPER, new Date(old.getTime() + 3_600_000));
      expect(kept(purgedId)).toBe(true);
      await purge(store, purgeCutoffs(new Date(), 730));
      expect(kept(purgedId)).toBe(false);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the words and the periods', () => {
  it('offers a button for each way the customer allows, every way when they set no limit', () => {
    expect(offeredWays(undefined)).toEqual(['call', 'text', 'email']);
    expect(offeredWays(['email'])).toEqual(['email']);
    expect(offeredWays(['text', 'call'])).toEqual(['call', 'text']);
  });

  it('holds an attempt sent after the session ended through the sign-in, told in words for its one tap', () => {
    expect(isHeldPath('/office/attempt')).toBe(true);
    const fields: Array<[string, string]> = [
      ['reference', 'Q-P7RH-Q4'],
      ['way', 'text'],
    ];
    expect(heldChangeWords({ path: '/office/attempt', fields })).toBe('Record on Q-P7RH-Q4: texted, no answer.');
  });

  it('says one attempt without a count', () => {
    const at = new Date('2026-11-28T18:05:00Z');
    const words = lastAttemptWords({ count: 1, last: { at, by: 'ann@example.com', way: 'text' } }, ZONE);
    // The time in the one style of the office's pages (`shortTime`), none of its own.
    expect(words).toBe(`Tried by text, ${shortTime(at, ZONE)}, by ann@example.com; nobody answered.`);
  });

  it('is late only when still waiting past the answer-by, or first contacted after it', () => {
    const lead = { answerBy: ANSWER_BY.toISOString() };
    expect(promiseKept({ lead, status: 'new' }, hours(23))).toBe('');
    expect(promiseKept({ lead, status: 'new' }, hours(25))).toBe('Late');
    expect(promiseKept({ lead, status: 'contacted', firstContact: { at: hours(24), by: BOSS } }, hours(50))).toBe('In time');
    expect(promiseKept({ lead, status: 'done', firstContact: { at: hours(25), by: BOSS } }, hours(50))).toBe('Late');
    // Moved on before first contacts were recorded, or never promised: nothing to say.
    expect(promiseKept({ lead, status: 'done' }, hours(50))).toBe('');
    expect(promiseKept({ lead: {}, status: 'new' }, hours(50))).toBe('');
  });

  it('gives this week, last week (from Monday, in the office’s time zone) and this month', () => {
    // Sunday 29 November 2026, 11 pm in Portland (Monday 07:00 UTC): still that Sunday's week.
    const sunday = new Date('2026-11-30T07:00:00Z');
    expect(exportPeriod('this-week', sunday, ZONE)).toEqual({ since: '2026-11-23', until: '2026-11-29' });
    expect(exportPeriod('last-week', sunday, ZONE)).toEqual({ since: '2026-11-16', until: '2026-11-22' });
    expect(exportPeriod('this-month', sunday, ZONE)).toEqual({ since: '2026-11-01', until: '2026-11-30' });
    // A Monday begins its week; a week across the change of the clocks keeps its days.
    expect(exportPeriod('this-week', new Date('2026-11-02T09:00:00Z'), ZONE)).toEqual({ since: '2026-11-02', until: '2026-11-08' });
    expect(exportPeriod('last-week', new Date('2026-11-02T09:00:00Z'), ZONE)).toEqual({ since: '2026-10-26', until: '2026-11-01' });
    expect(exportPeriod('this-month', new Date('2026-02-10T20:00:00Z'), ZONE)).toEqual({ since: '2026-02-01', until: '2026-02-28' });
  });
});

describe('/privacy', () => {
  it('names the attempts in what the office adds: who tried, when and how, deleted with the request', () => {
    const page = documents()['/privacy']!.replace(/\s+/g, ' ');
    const adds = page.slice(page.indexOf('What the office adds'), page.indexOf('All of this is deleted with the request.'));
    expect(adds).toContain('The attempts');
    expect(adds).toMatch(/call, text or e-mail of the office that reached nobody, with who tried, when and how/);
    expect(Object.values(PRIVACY_COLUMNS.lead_attempts!)).toEqual(['The attempts', 'The attempts', 'The attempts']);
  });
});
