/**
 * Issue 55, item 4, on SQLite and PostgreSQL alike: the team's load per person (the leads each holds
 * that wait, how many of those are late, how many each first contacted today), with the clock handed
 * in; "Mine" lists my open leads alone, most urgent first; a lead given to me by someone else is
 * marked for me alone until I open its own page or act on it; and the mark goes with its lead.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { personOf, purge, purgeCutoffs } from '../../src/leads/retention.ts';
import { addNote, takeLead, workLead } from '../../src/office/notes.ts';
import { recordAttempt } from '../../src/office/attempts.ts';
import { changeStatus } from '../../src/office/status.ts';
import { readInboxView } from '../../src/office/inbox-filters.ts';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote, serviceArea } from '../support/fixtures.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

const HASH = 'scrypt$1$1$1$AA==$AA==';
const BOSS = 'boss@example.com';
const HELPER = 'helper@example.com';
const OTHER = 'other@example.com';
const ZONE = 'America/Los_Angeles';
/** The clock handed in: noon in the office on Tuesday, Nov 24, 2026; today began at its midnight. */
const NOW = new Date('2026-11-24T20:00:00Z');
const TODAY_BEGAN = new Date('2026-11-24T08:00:00Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR);

/** Each store opened fresh, with a way to read its rows behind its back (and, for SQLite, its files). */
const KINDS: ReadonlyArray<{
  name: string;
  skip: boolean;
  open: () => Promise<{ store: Store; rows: (sql: string) => Promise<Array<Record<string, unknown>>>; files: string[]; cleanup: () => Promise<void> }>;
}> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'team-load-'));
      const path = join(dir, 'leads.sqlite');
      const store = openSqliteStore(path);
      const rows = async (sql: string) => {
        const db = new DatabaseSync(path, { readOnly: true });
        try {
          return db.prepare(sql).all() as Array<Record<string, unknown>>;
        } finally {
          db.close();
        }
      };
      return { store, rows, files: [path, `${path}-wal`], cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      const store = await openPostgresStore(schema.url, TEST_POSTGRES);
      const rows = async (sql: string) => {
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        try {
          return (await client.query(sql)).rows as Array<Record<string, unknown>>;
        } finally {
          await client.end();
        }
      };
      return { store, rows, files: [], cleanup: async () => (await store.close(), await schema.drop()) };
    },
  },
];

let sent = 0;
/** A lead received at `receivedAt`, promised an answer by `answerBy`; its reference and id. */
async function stored(store: Store, receivedAt: Date, answerBy: Date, email = `load.${++sent}@example.com`): Promise<{ reference: string; id: string }> {
  const v = validateLead(quote({ email, name: `Load Customer ${sent}` }));
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now: receivedAt };
  const record = { ...toLeadRecord(v.lead, meta, serviceArea()), answerBy: answerBy.toISOString() };
  const outcome = await store.submit(record, undefined);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return { reference: outcome.receipt.reference, id: record.id };
}

for (const kind of KINDS) {
  describe.skipIf(kind.skip)(`the team's load on ${kind.name}`, () => {
    let store: Store;
    let rows: (sql: string) => Promise<Array<Record<string, unknown>>>;
    let files: string[];
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, rows, files, cleanup } = await kind.open());
      await store.saveUser(BOSS, HASH, at(-100), undefined, 'owner');
      await store.saveUser(HELPER, HASH, at(-100), undefined, 'staff');
      await store.saveUser(OTHER, HASH, at(-100), undefined, 'staff');
    });
    afterEach(() => cleanup());

    const give = (reference: string, to: string, by = BOSS, when = at(-5)) => workLead(store, { reference, owner: to, note: '' }, by, when);
    const contact = (reference: string, by: string, when: Date) => changeStatus(store, { reference, status: 'contacted' }, by, when);
    const lead = async (reference: string, account?: string) => (await store.inbox({ reference, account, limit: 1, offset: 0 }))[0]!;
    const figures = async () => Object.fromEntries((await store.teamLoad(TODAY_BEGAN, NOW)).map((p) => [p.email, [p.waiting, p.late, p.firstContacted]]));

    it('counts, per person, the leads they hold that wait, those of them late, and those they first contacted today', async () => {
      expect(await figures()).toEqual({ [BOSS]: [0, 0, 0], [HELPER]: [0, 0, 0], [OTHER]: [0, 0, 0] });
      // Three given to the helper, two of them past their answer-by; one the boss took, not yet due.
      const late1 = await stored(store, at(-30), at(-1));
      const late2 = await stored(store, at(-29), at(-2));
      const due = await stored(store, at(-28), at(1));
      for (const { reference } of [late1, late2, due]) await give(reference, HELPER);
      const boss = await stored(store, at(-27), at(3));
      await takeLead(store, boss.reference, true, BOSS, { now: at(-4) });
      // Contacted: by the helper this morning (a lead they hold, no longer waiting) and yesterday; by the boss today, on nobody's lead.
      const today = await stored(store, at(-26), at(-20));
      await takeLead(store, today.reference, true, HELPER, { now: at(-4) });
      await contact(today.reference, HELPER, at(-1));
      await contact((await stored(store, at(-25), at(-19))).reference, HELPER, new Date(TODAY_BEGAN.getTime() - 1));
      await contact((await stored(store, at(-24), at(-18))).reference, BOSS, TODAY_BEGAN);
      // Nobody's waiting lead, late or not, is nobody's load.
      await stored(store, at(-23), at(-22));
      expect(await figures()).toEqual({ [BOSS]: [1, 0, 1], [HELPER]: [3, 2, 1], [OTHER]: [0, 0, 0] });
      // The same store an hour later: the one due then is late too; each account by its opaque id.
      const later = await store.teamLoad(TODAY_BEGAN, at(1.5));
      expect(later.find((p) => p.email === HELPER)).toMatchObject({ waiting: 3, late: 3 });
      const accounts = await store.listUsers();
      expect(later.map((p) => p.id)).toEqual(accounts.map((a) => a.id));
      // Done leaves the load; a lead given on leaves the giver's.
      await changeStatus(store, { reference: late1.reference, status: 'done' }, HELPER, at(0.5));
      await give(late2.reference, OTHER, BOSS, at(0.5));
      expect(await figures()).toEqual({ [BOSS]: [1, 0, 1], [HELPER]: [1, 0, 2], [OTHER]: [1, 1, 0] });
    });

    it('"Mine" lists my open leads alone, the waiting ones most urgent first, then the contacted ones newest first', async () => {
      const soon = await stored(store, at(-10), at(2));
      const overdue = await stored(store, at(-9), at(-3));
      const latest = await stored(store, at(-8), at(5));
      const older = await stored(store, at(-20), at(-15));
      const newer = await stored(store, at(-7), at(-6));
      const done = await stored(store, at(-6), at(-5));
      const others = await stored(store, at(-5), at(-4));
      for (const { reference } of [soon, overdue, latest, older, newer, done]) await takeLead(store, reference, true, HELPER, { now: at(-1) });
      await takeLead(store, others.reference, true, OTHER, { now: at(-1) });
      for (const { reference } of [older, newer]) await contact(reference, HELPER, at(-0.5));
      await changeStatus(store, { reference: done.reference, status: 'done' }, HELPER, at(-0.5));
      const { filter } = readInboxView(new URLSearchParams('owner=mine'), HELPER, ZONE, NOW);
      expect(filter).toMatchObject({ owner: { email: HELPER }, open: true });
      const mine = await store.inbox({ ...filter, account: HELPER, limit: 50, offset: 0 });
      expect(mine.map((i) => i.lead.reference)).toEqual([overdue, soon, latest, newer, older].map((l) => l.reference));
      expect(await store.inboxCount(filter)).toBe(5);
      // A status chosen beside "Mine" is that status, newest first, as before.
      const { filter: doneToo } = readInboxView(new URLSearchParams('owner=mine&status=done'), HELPER, ZONE, NOW);
      expect(doneToo.open).toBeUndefined();
      expect((await store.inbox({ ...doneToo, limit: 50, offset: 0 })).map((i) => i.lead.reference)).toEqual([done.reference]);
    });

    it('marks a lead given by another for its receiver alone, until they open its own page or act on it', async () => {
      const [tried, opened, noted, taken, statused, kept] = [
        await stored(store, at(-11), at(0.5)),
        await stored(store, at(-10), at(1)),
        await stored(store, at(-9), at(2)),
        await stored(store, at(-8), at(3)),
        await stored(store, at(-7), at(4)),
        await stored(store, at(-6), at(5)),
      ];
      for (const { reference } of [tried, opened, noted, taken, statused, kept]) await give(reference, HELPER, BOSS, at(-2));
      // Taken by oneself, or let go: no mark.
      const own = await stored(store, at(-5), at(6));
      await takeLead(store, own.reference, true, HELPER, { now: at(-2) });
      const mark = { by: BOSS, at: at(-2) };
      for (const { reference } of [tried, opened, noted, taken, statused, kept]) {
        expect((await lead(reference, HELPER)).givenBy).toEqual(mark);
        // Shown to the receiver alone: not to the giver, nor to a colleague, nor without an account.
        for (const account of [BOSS, OTHER, undefined]) expect((await lead(reference, account)).givenBy).toBeUndefined();
      }
      expect((await lead(own.reference, HELPER)).givenBy).toBeUndefined();
      const listed = await store.inbox({ owner: { email: HELPER }, account: HELPER, limit: 50, offset: 0 });
      expect(
        listed
          .filter((i) => i.givenBy)
          .map((i) => i.lead.reference)
          .sort(),
      ).toEqual([tried, opened, noted, taken, statused, kept].map((l) => l.reference).sort());

      // Its own page opened, a call that reached nobody, a note, taking it again (which changes nothing), a status: each clears
      // the receiver's mark alone.
      await store.openedLead(opened.reference, HELPER);
      expect(await recordAttempt(store, tried.reference, 'call', HELPER, at(0))).toEqual({ kind: 'recorded' });
      await addNote(store, noted.reference, 'Called, left a message.', HELPER, at(0));
      await takeLead(store, taken.reference, true, HELPER, { now: at(0) });
      await changeStatus(store, { reference: statused.reference, status: 'contacted' }, HELPER, at(0));
      // Another's action, or another's opening of it, leaves the mark.
      await addNote(store, kept.reference, 'Boss: please call today.', BOSS, at(0));
      await store.openedLead(kept.reference, OTHER);
      for (const { reference } of [tried, opened, noted, taken, statused]) expect((await lead(reference, HELPER)).givenBy).toBeUndefined();
      expect((await lead(kept.reference, HELPER)).givenBy).toEqual(mark);

      // Given on: the mark moves to the new holder, by whoever gave it; let go, it is nobody's mark.
      await give(kept.reference, OTHER, HELPER, at(1));
      expect((await lead(kept.reference, HELPER)).givenBy).toBeUndefined();
      expect((await lead(kept.reference, OTHER)).givenBy).toEqual({ by: HELPER, at: at(1) });
      await workLead(store, { reference: kept.reference, owner: null, note: '' }, BOSS, at(2));
      expect((await lead(kept.reference, OTHER)).givenBy).toBeUndefined();
      expect(await rows('SELECT * FROM lead_given_marks')).toEqual([]);
    });

    it('erases the mark with its lead, on deletion and by the purge', async () => {
      const deleted = await stored(store, at(-3), at(2), 'erase.me@example.com');
      const purged = await stored(store, new Date(NOW.getTime() - 800 * 24 * HOUR), at(-1));
      await give(deleted.reference, HELPER);
      await give(purged.reference, HELPER);
      expect(await rows('SELECT account FROM lead_given_marks')).toHaveLength(2);
      await store.deletePerson(personOf('email', 'erase.me@example.com')!, { kind: 'email', deletedAt: NOW });
      await purge(store, purgeCutoffs(NOW, 730));
      expect(await rows('SELECT account FROM lead_given_marks')).toEqual([]);
      expect(await store.inbox({ owner: { email: HELPER }, account: HELPER, limit: 50, offset: 0 })).toEqual([]);
      // SQLite: neither lead's id is left in the file or its write-ahead log (erased to the byte).
      const bytes = Buffer.concat(files.filter((f) => existsSync(f)).map((f) => readFileSync(f)));
      for (const { id } of [deleted, purged]) expect(bytes.includes(Buffer.from(id))).toBe(false);
    });
  });
}
