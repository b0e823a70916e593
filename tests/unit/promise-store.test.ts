/**
 * The promise made to each customer, kept by both stores: the answer-by instant stored with each
 * lead and given back by a replay and a duplicate; worked out once for leads stored before it was
 * kept; the first contact recorded the first time a lead leaves "new", and never moved; the waiting
 * leads listed by urgency; and the late ones counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { answerBy } from '../../src/leads/next-step.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { changeStatus } from '../../src/office/status.ts';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { LEADS_WITHOUT_ANSWER_BY } from '../../src/store/sqlite/records.ts';
import { promise, quote, serviceArea } from '../support/fixtures.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

const HOUR = 3_600_000;
type Opened = { store: Store; sql: (statement: { sqlite: string; postgres: string }) => Promise<void>; cleanup: () => Promise<void> };

const stores: Array<{ name: string; skip: boolean; open: () => Promise<Opened> }> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'promise-store-'));
      const path = join(dir, 'leads.sqlite');
      const store = openSqliteStore(path);
      const sql = async ({ sqlite }: { sqlite: string }) => {
        const db = new DatabaseSync(path);
        db.exec(sqlite);
        db.close();
      };
      return { store, sql, cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      const store = await openPostgresStore(schema.url, TEST_POSTGRES);
      const sql = async ({ postgres }: { postgres: string }) => {
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        await client.query(postgres);
        await client.end();
      };
      return { store, sql, cleanup: async () => (await store.close(), await schema.drop()) };
    },
  },
];

/** A lead received at `now`, as the intake records it: with its answer-by instant. */
function record(body: Record<string, unknown>, now: Date) {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now };
  return { ...toLeadRecord(v.lead, meta, serviceArea()), answerBy: answerBy(now, promise()).toISOString() };
}

let n = 0;
const person = () => quote({ email: `promise.${++n}@example.com`, name: `Jane Doe ${n}` });

for (const kind of stores) {
  describe.skipIf(kind.skip)(`the promise kept by the ${kind.name} store`, () => {
    let opened: Opened;
    beforeEach(async () => {
      opened = await kind.open();
    });
    afterEach(async () => opened?.cleanup());

    it('stores the answer-by instant with the lead, and gives it back with a replay and a duplicate', async () => {
      const { store } = opened;
      const sent = new Date('2026-11-20T19:00:00-08:00');
      const lead = record(person(), sent);
      const claim = { key: `key-${n}`, requestHash: 'hash' };
      const created = await store.submit(lead, claim);
      expect(created).toMatchObject({ kind: 'created', answerBy: '2026-11-24T02:00:00.000Z' });
      // The replay's body is the receipt alone: the instant comes beside it, never in it.
      const replayed = await store.submit({ ...lead, id: 'another-id' }, claim);
      expect(replayed).toMatchObject({ kind: 'replayed', answerBy: '2026-11-24T02:00:00.000Z' });
      expect(replayed.kind === 'replayed' && Object.keys(replayed.receipt)).not.toContain('answerBy');
      const again = record({ ...lead.fields, communicationsConsent: true }, new Date(sent.getTime() + HOUR));
      expect(await store.submit(again, undefined)).toMatchObject({ kind: 'duplicate', answerBy: '2026-11-24T02:00:00.000Z' });
      const [inbox] = await store.inbox({ limit: 10, offset: 0 });
      expect(inbox!.lead.answerBy).toBe('2026-11-24T02:00:00.000Z');
    });

    it("works out once the instant of leads stored before it was kept, from their receipt and today's promise", async () => {
      const { store, sql } = opened;
      const sent = new Date('2026-11-25T20:00:00-08:00');
      await store.submit(record(person(), sent), undefined);
      await sql({ sqlite: 'UPDATE leads SET answer_by = NULL', postgres: 'UPDATE leads SET answer_by = NULL' });
      const closed = { ...promise(), closed: [{ date: '2026-11-26', name: 'Thanksgiving Day' }] };
      expect(await store.keepAnswerBy((at) => answerBy(at, closed))).toBe(1);
      expect(await store.keepAnswerBy((at) => answerBy(at, closed))).toBe(0);
      const [inbox] = await store.inbox({ limit: 10, offset: 0 });
      expect(inbox!.lead.answerBy).toBe('2026-11-28T02:00:00.000Z');
    });

    it('records the first contact the first time a lead leaves "new", and never moves it', async () => {
      const { store } = opened;
      const first = await store.submit(record(person(), new Date('2026-11-23T09:00:00-08:00')), undefined);
      const reference = first.kind === 'created' ? first.receipt.reference : '';
      const read = async () => (await store.inbox({ limit: 10, offset: 0 }))[0]!.firstContact;
      expect(await read()).toBeUndefined();
      await changeStatus(store, { reference, status: 'contacted' }, 'office@example.com', new Date('2026-11-23T10:00:00-08:00'));
      await changeStatus(store, { reference, status: 'new' }, 'owner@example.com', new Date('2026-11-23T11:00:00-08:00'));
      await changeStatus(store, { reference, status: 'done' }, 'owner@example.com', new Date('2026-11-24T11:00:00-08:00'));
      expect(await read()).toEqual({ at: new Date('2026-11-23T18:00:00.000Z'), by: 'office@example.com' });
    });

    it('lists the waiting leads by urgency, and counts the late ones', async () => {
      const { store } = opened;
      // Three requests: Monday morning, Friday evening (answer by Monday 6 pm), Monday evening (Tuesday 6 pm).
      const sent = ['2026-11-23T10:00:00-08:00', '2026-11-20T19:00:00-08:00', '2026-11-23T19:00:00-08:00'].map((s) => new Date(s));
      const refs: string[] = [];
      for (const at of sent) {
        const outcome = await store.submit(record(person(), at), undefined);
        refs.push(outcome.kind === 'created' ? outcome.receipt.reference : '');
      }
      await changeStatus(store, { reference: refs[0]!, status: 'contacted' }, 'office@example.com', new Date('2026-11-23T11:00:00-08:00'));
      const urgent = await store.inbox({ urgent: true, limit: 10, offset: 0 });
      expect(urgent.map((l) => l.lead.reference)).toEqual([refs[1], refs[2]]);
      expect(await store.inboxCount({ urgent: true })).toBe(2);
      // Tuesday noon: the Friday request is late (its answer-by was Monday 6 pm), the Monday evening one is not yet.
      const counts = await store.statusCounts(new Date('2026-11-24T08:00:00Z'), new Date('2026-11-24T12:00:00-08:00'));
      expect(counts).toMatchObject({ new: 2, contacted: 1, late: 1 });
      expect((await store.statusCounts(new Date(0), new Date('2026-11-25T12:00:00-08:00'))).late).toBe(2);
    });
  });
}

describe('the SQLite store at start-up', () => {
  it('reads only the leads without an answer-by instant, by their own index, never the whole table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'promise-plan-'));
    const path = join(dir, 'leads.sqlite');
    await openSqliteStore(path).close();
    const db = new DatabaseSync(path, { readOnly: true });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${LEADS_WITHOUT_ANSWER_BY}`).all() as Array<{ detail: string }>).map((p) => p.detail);
    db.close();
    rmSync(dir, { recursive: true, force: true });
    expect(plan).toEqual(['SCAN leads USING INDEX leads_without_answer_by']);
  });
});
