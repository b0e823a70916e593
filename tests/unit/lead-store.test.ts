/** The lead store contract, role by role (intake, records, outbox, service keys), one suite run against every real store: SQLite on a temporary file, with and without group commit, and PostgreSQL. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { disclosureOf, toLeadRecord } from '../../src/leads/lead.ts';
import { REFERENCE_PATTERN } from '../../src/leads/reference.ts';
import { purge, purgeCutoffs } from '../../src/leads/retention.ts';
import { validateLead, type ValidLead } from '../../src/leads/validate.ts';
import { StoreUnavailableError, type LeadStore } from '../../src/leads/store.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { contact, quote } from '../support/fixtures.ts';
import { canMountTmpfs, createSchema, mountTmpfs, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

const valid = (body: unknown): ValidLead => {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.lead;
};
const meta = (now = new Date()) => ({ receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.1', userAgent: 'test', now });

interface StoreFactory {
  name: string;
  skip?: boolean;
  /** Opens a fresh store; `reopen` opens another store on the same data (writing notifications with `outbox`). */
  open(): Promise<{ store: LeadStore; reopen(options?: { outbox?: boolean }): Promise<LeadStore>; cleanup(): Promise<void>; sql: RawSql }>;
}

/** Runs statements on the store's own database, beside the store: to break what the store relies on. */
type RawSql = (statements: { sqlite: string; postgres: string }) => Promise<void>;

const sqliteSql =
  (path: string): RawSql =>
  async ({ sqlite }) => {
    const db = new DatabaseSync(path, { timeout: 60_000 });
    db.exec(sqlite);
    db.close();
  };

const factories: StoreFactory[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'store-'));
      const path = join(dir, 'nested', 'leads.sqlite');
      return {
        store: openSqliteStore(path),
        reopen: async (o = {}) => openSqliteStore(path, { groupCommit: true, ...o }),
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
        sql: sqliteSql(path),
      };
    },
  },
  {
    name: 'SQLite, one commit per submission (SQLITE_GROUP_COMMIT=off)',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'store-'));
      const path = join(dir, 'leads.sqlite');
      const options = { groupCommit: false };
      return {
        store: openSqliteStore(path, options),
        reopen: async (o = {}) => openSqliteStore(path, { ...options, ...o }),
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
        sql: sqliteSql(path),
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      const sql: RawSql = async ({ postgres }) => {
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        await client.query(postgres);
        await client.end();
      };
      return {
        store: await openPostgresStore(schema.url, TEST_POSTGRES),
        reopen: (o = {}) => openPostgresStore(schema.url, { ...TEST_POSTGRES, ...o }),
        cleanup: () => schema.drop(),
        sql,
      };
    },
  },
];

/**
 * Runs `submit(i)` for `count` leads, a hundred at a time: many at once, as group commit wants, but
 * never more than a PostgreSQL pool serves before its wait for a connection runs out on a busy machine.
 */
async function inBatches(count: number, submit: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += 100) await Promise.all(Array.from({ length: Math.min(100, count - start) }, (_, k) => submit(start + k)));
}

const count = async (store: LeadStore) => {
  let n = 0;
  for await (const _ of store.exportLeads()) n++;
  return n;
};

for (const factory of factories) {
  describe.skipIf(factory.skip)(`${factory.name} lead store`, () => {
    let store: LeadStore;
    let reopen: (options?: { outbox?: boolean }) => Promise<LeadStore>;
    let cleanup: () => Promise<void>;
    let sql: RawSql;
    beforeEach(async () => {
      ({ store, reopen, cleanup, sql } = await factory.open());
    });
    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    describe('intake: submit and ping', () => {
      it('stores a lead and exports it with its normalised contact and consent evidence', async () => {
        const lead = toLeadRecord(valid(quote({ email: 'Jane.Doe@Example.com' })), meta());
        expect(await store.submit(lead, undefined)).toMatchObject({ kind: 'created', receipt: { id: lead.id, formType: 'quote', status: 'received' } });
        const exported = [];
        for await (const l of store.exportLeads()) exported.push(l);
        expect(exported).toEqual([lead]);
        expect(exported[0]).toMatchObject({
          emailNormalised: 'jane.doe@example.com',
          phoneE164: '+15035550142',
          consent: { communicationsConsent: true, clientAddress: '198.51.100.1' },
        });
      });

      it('gives every lead its own short reference: a lead drawn with a reference another has is stored under a new one, which its receipt names', async () => {
        const first = toLeadRecord(valid(quote()), meta());
        expect(first.reference).toMatch(REFERENCE_PATTERN);
        await store.submit(first, undefined);
        const clash = { ...toLeadRecord(valid(contact()), meta()), reference: first.reference };
        const outcome = await store.submit(clash, { key: 'clash', requestHash: 'h' });
        if (outcome.kind !== 'created') throw new Error(outcome.kind);
        expect(outcome.receipt.id).toBe(clash.id);
        expect(outcome.receipt.reference).toMatch(/^C-/);
        expect(outcome.receipt.reference).not.toBe(first.reference);
        const exported = new Map<string, string>();
        for await (const l of store.exportLeads()) exported.set(l.id, l.reference);
        expect(exported).toEqual(
          new Map([
            [first.id, first.reference],
            [clash.id, outcome.receipt.reference],
          ]),
        );
        // The replay gives the reference the lead was stored under.
        expect(await store.submit({ ...clash, id: 'another' }, { key: 'clash', requestHash: 'h' })).toEqual({ kind: 'replayed', receipt: outcome.receipt });
      });

      it('keeps what it committed across a reopen, and migrations run once', async () => {
        const lead = toLeadRecord(valid(contact()), meta());
        await store.submit(lead, undefined);
        await store.close();
        store = await reopen();
        const ids = [];
        for await (const l of store.exportLeads()) ids.push(l.id);
        expect(ids).toEqual([lead.id]);
      });

      it('answers a duplicate of a lead accepted within 24 hours with the first id', async () => {
        const body = quote();
        const first = toLeadRecord(valid(body), meta());
        await store.submit(first, undefined);
        const again = toLeadRecord(
          valid({ ...body, name: `  ${String(body.name).toUpperCase()} `, email: String(body.email).toUpperCase(), phone: '503.555.0142' }),
          meta(),
        );
        expect(await store.submit(again, undefined)).toEqual({ kind: 'duplicate', leadId: first.id, reference: first.reference, receivedAt: first.receivedAt });
        const later = toLeadRecord(valid(body), meta(new Date(Date.now() + 25 * 3600_000)));
        expect((await store.submit(later, undefined)).kind).toBe('created');
      });

      it('replays the first receipt for the same key and body, and refuses the key with another body', async () => {
        const first = toLeadRecord(valid(quote()), meta());
        const created = await store.submit(first, { key: 'k1', requestHash: 'h1' });
        const replay = await store.submit(toLeadRecord(valid(quote()), meta()), { key: 'k1', requestHash: 'h1' });
        expect(replay).toEqual({ kind: 'replayed', receipt: (created as { receipt: unknown }).receipt });
        expect(await store.submit(toLeadRecord(valid(quote()), meta()), { key: 'k1', requestHash: 'h2' })).toEqual({ kind: 'key_reused' });
        expect(await count(store)).toBe(1);
      });

      it('forgets an idempotency key after 24 hours', async () => {
        await store.submit(toLeadRecord(valid(quote()), meta()), { key: 'k2', requestHash: 'h1' });
        const later = toLeadRecord(valid(quote()), meta(new Date(Date.now() + 25 * 3600_000)));
        expect((await store.submit(later, { key: 'k2', requestHash: 'h2' })).kind).toBe('created');
      });

      it('answers none of a batch as stored when its COMMIT fails after every insert succeeded, stores none, and takes the next', async () => {
        // A constraint checked at COMMIT alone (deferred): every insert of the batch succeeds, then the commit is refused.
        await sql({
          sqlite: `CREATE TABLE commit_trap_parent (id TEXT PRIMARY KEY);
                   CREATE TABLE commit_trap (lead_id TEXT REFERENCES commit_trap_parent (id) DEFERRABLE INITIALLY DEFERRED);
                   CREATE TRIGGER commit_trap AFTER INSERT ON leads BEGIN INSERT INTO commit_trap VALUES (NEW.id); END;`,
          postgres: `CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$;
                     CREATE CONSTRAINT TRIGGER commit_trap AFTER INSERT ON leads DEFERRABLE INITIALLY DEFERRED
                       FOR EACH ROW EXECUTE FUNCTION refuse_at_commit();`,
        });
        // Sent in one turn of the event loop: on SQLite, one batch and one commit.
        const leads = ['ann', 'bob', 'cy'].map((who) => toLeadRecord(valid({ ...quote(), email: `${who}@example.com` }), meta()));
        const settled = await Promise.allSettled(leads.map((lead, i) => store.submit(lead, { key: `trapped-${i}`, requestHash: 'h' })));
        expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.kind : 'refused'))).toEqual(['refused', 'refused', 'refused']);
        expect(await count(store)).toBe(0);
        // Sent again once the commit can be made, with the same keys: each is new, and stored once.
        await sql({ sqlite: 'DROP TRIGGER commit_trap', postgres: 'DROP TRIGGER commit_trap ON leads' });
        const again = await Promise.all(leads.map((lead, i) => store.submit(lead, { key: `trapped-${i}`, requestHash: 'h' })));
        expect(again.map((o) => o.kind)).toEqual(['created', 'created', 'created']);
        expect(await count(store)).toBe(3);
      });

      it('refuses only the submission that fails among those sent together: the others before and after it are stored', async () => {
        await sql({
          sqlite:
            "CREATE TRIGGER one_fails BEFORE INSERT ON leads WHEN NEW.email_normalised = 'fails@example.com' BEGIN SELECT RAISE(ABORT, 'this one fails'); END;",
          postgres: `CREATE FUNCTION one_fails() RETURNS trigger LANGUAGE plpgsql AS $$
                       BEGIN IF NEW.email_normalised = 'fails@example.com' THEN RAISE EXCEPTION 'this one fails'; END IF; RETURN NEW; END $$;
                     CREATE TRIGGER one_fails BEFORE INSERT ON leads FOR EACH ROW EXECUTE FUNCTION one_fails();`,
        });
        // Sent in one turn of the event loop: on SQLite, one batch and one commit.
        const sent = ['first', 'fails', 'third', 'fourth'].map((who, i) =>
          store.submit(toLeadRecord(valid({ ...quote(), email: `${who}@example.com` }), meta()), { key: `one-fails-${i}`, requestHash: 'h' }),
        );
        const settled = await Promise.allSettled(sent);
        expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
        expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.kind : 'refused'))).toEqual(['created', 'refused', 'created', 'created']);
        expect(await count(store)).toBe(3);
        // The refused one left no key: sent again once the fault is gone, it is new.
        await sql({ sqlite: 'DROP TRIGGER one_fails', postgres: 'DROP TRIGGER one_fails ON leads' });
        expect(
          (await store.submit(toLeadRecord(valid({ ...quote(), email: 'fails@example.com' }), meta()), { key: 'one-fails-1', requestHash: 'h' })).kind,
        ).toBe('created');
      });

      it('lets exactly one of many concurrent submissions with the same key or the same lead win', async () => {
        const body = quote();
        const sameKey = await Promise.all(
          Array.from({ length: 8 }, () => store.submit(toLeadRecord(valid(quote()), meta()), { key: 'race', requestHash: 'h' })),
        );
        expect(sameKey.filter((o) => o.kind === 'created')).toHaveLength(1);
        expect(sameKey.filter((o) => o.kind === 'replayed')).toHaveLength(7);
        const sameLead = await Promise.all(Array.from({ length: 8 }, () => store.submit(toLeadRecord(valid(body), meta()), undefined)));
        expect(sameLead.filter((o) => o.kind === 'created')).toHaveLength(1);
        expect(sameLead.filter((o) => o.kind === 'duplicate')).toHaveLength(7);
        expect(await count(store)).toBe(2);
      });

      it('keeps the consent disclosure a web-form lead names, once per version, and exports it with the lead', async () => {
        const disclosure = disclosureOf('I agree that Example Cleaning Co. may call, text and e-mail me. Privacy notice: /privacy');
        const webMeta = { ...meta(), receivedVia: '/quote', channel: 'web-form' as const, disclosure };
        const first = toLeadRecord(valid(quote()), webMeta);
        const second = toLeadRecord(valid(quote()), webMeta);
        const api = toLeadRecord(valid(quote()), meta());
        for (const lead of [first, second, api]) expect((await store.submit(lead, undefined)).kind).toBe('created');
        const exported = [];
        for await (const l of store.exportLeads()) exported.push(l);
        expect(
          exported
            .map((l) => [l.consent.channel, l.consent.disclosureVersion, l.disclosure?.text])
            .sort()
            .reverse(),
        ).toEqual([
          ['web-form', disclosure.version, disclosure.text],
          ['web-form', disclosure.version, disclosure.text],
          ['api', null, undefined],
        ]);
      });
    });

    describe('records: export, deletion on request, retention', () => {
      it('exports what a filter selects: from --since (inclusive) until --until (exclusive), of one form', async () => {
        const at = (iso: string) => meta(new Date(iso));
        const leads = [
          toLeadRecord(valid(quote()), at('2026-10-31T23:59:59.999Z')),
          toLeadRecord(valid(quote()), at('2026-11-01T00:00:00.000Z')),
          toLeadRecord(valid(contact()), at('2026-11-15T12:00:00.000Z')),
          toLeadRecord(valid(quote()), at('2026-11-30T23:59:59.999Z')),
          toLeadRecord(valid(contact()), at('2026-12-01T00:00:00.000Z')),
        ];
        for (const lead of leads) await store.submit(lead, undefined);
        const ids = async (filter: Parameters<LeadStore['exportLeads']>[0]) => {
          const found = [];
          for await (const l of store.exportLeads(filter)) found.push(l.id);
          return found;
        };
        const november = { since: new Date('2026-11-01T00:00:00Z'), until: new Date('2026-12-01T00:00:00Z') };
        expect(await ids(november)).toEqual([leads[1]!.id, leads[2]!.id, leads[3]!.id]);
        expect(await ids({ ...november, form: 'support' })).toEqual([leads[2]!.id]);
        expect(await ids({ form: 'quote' })).toEqual([leads[0]!.id, leads[1]!.id, leads[3]!.id]);
        expect(await ids({})).toHaveLength(5);
      });

      it("deletes every lead of one person, with their idempotency records, keeps everyone else's, and records the deletion without the person's details", async () => {
        const person = { email: 'ada.byron@example.com', phone: '(503) 555-0177' };
        const theirs = [toLeadRecord(valid(quote({ ...person })), meta()), toLeadRecord(valid(contact({ ...person, email: 'Ada.Byron@Example.com' })), meta())];
        const others = toLeadRecord(valid(quote()), meta());
        await store.submit(theirs[0]!, { key: 'ada-key', requestHash: 'h' });
        await store.submit(theirs[1]!, undefined);
        await store.submit(others, { key: 'other-key', requestHash: 'h' });
        const match = { kind: 'email' as const, value: 'ada.byron@example.com' };
        expect(await store.countPerson(match)).toEqual({ leads: 2, idempotencyKeys: 1, fingerprints: 2, officeEmails: [], suspectedSpam: 0 });
        const removed = await store.deletePerson(match, { kind: 'email', deletedAt: new Date('2026-11-22T10:00:00Z') });
        expect(removed.leads).toBe(2);
        const left = [];
        for await (const l of store.exportLeads()) left.push(l.id);
        expect(left).toEqual([others.id]);
        expect(await store.deletionRecords()).toEqual([{ kind: 'email', deletedAt: new Date('2026-11-22T10:00:00Z'), leads: 2 }]);
        // The key and the duplicate fingerprint went with the leads: the same submission is new again.
        expect((await store.submit(toLeadRecord(valid(quote({ ...person })), meta()), { key: 'ada-key', requestHash: 'h' })).kind).toBe('created');
        expect((await store.submit(toLeadRecord(valid(quote()), meta()), { key: 'other-key', requestHash: 'h' })).kind).toBe('replayed');
        // By phone, in its normalised form.
        expect((await store.countPerson({ kind: 'phone', value: '+15035550177' })).leads).toBe(1);
      });

      it('purges, step by step, leads past the retention period, records past 24 hours and deletion records past 24 months, and keeps the rest', async () => {
        const now = new Date('2028-06-01T00:00:00Z');
        const daysAgo = (d: number) => meta(new Date(now.getTime() - d * 86_400_000));
        const old = Array.from({ length: 5 }, () => toLeadRecord(valid(quote()), daysAgo(800)));
        const kept = toLeadRecord(valid(quote()), daysAgo(100));
        const recent = toLeadRecord(valid(quote()), daysAgo(0.5));
        for (const lead of old) await store.submit(lead, { key: `old-${lead.id}`, requestHash: 'h' });
        await store.submit(kept, { key: 'kept-key', requestHash: 'h' });
        await store.submit(recent, { key: 'recent-key', requestHash: 'h' });
        await store.deletePerson({ kind: 'email', value: 'nobody@example.com' }, { kind: 'email', deletedAt: new Date(now.getTime() - 800 * 86_400_000) });
        await store.deletePerson({ kind: 'email', value: 'nobody@example.com' }, { kind: 'phone', deletedAt: new Date(now.getTime() - 10 * 86_400_000) });
        const cutoffs = purgeCutoffs(now, 730);
        // Steps of two rows: the loop goes on until a step finds less than a full step.
        const first = await store.purgeStep({ ...cutoffs, limit: 2 });
        expect(first.leads).toBe(2);
        const total = await purge(store, cutoffs);
        expect(first.leads + total.leads).toBe(5);
        // Every key older than 24 hours (the five old leads' and the kept one's), and the fingerprints of leads past 24 hours.
        expect(first.idempotencyKeys + total.idempotencyKeys).toBe(6);
        expect(first.fingerprints + total.fingerprints).toBeGreaterThanOrEqual(1);
        const left = [];
        for await (const l of store.exportLeads()) left.push(l.id);
        expect(left.sort()).toEqual([kept.id, recent.id].sort());
        expect((await store.deletionRecords()).map((r) => r.kind)).toEqual(['phone']);
        // The kept lead's key expired and was purged: the same key is free; the recent one still replays.
        expect((await store.submit(toLeadRecord(valid(quote()), meta(now)), { key: 'kept-key', requestHash: 'other' })).kind).toBe('created');
        expect((await store.submit(toLeadRecord(valid(quote()), meta(now)), { key: 'recent-key', requestHash: 'h' })).kind).toBe('replayed');
      });

      it('purges safely from four openings of the store at once: every old lead removed once, no error, no deadlock', async () => {
        const now = new Date('2028-06-01T00:00:00Z');
        // With idempotency keys: each lead's records are wanted both by the 24-hour purge and with the lead.
        await inBatches(400, (i) =>
          store.submit(toLeadRecord(valid(quote()), meta(new Date(now.getTime() - (800 + i / 1000) * 86_400_000))), { key: `old-${i}`, requestHash: 'h' }),
        );
        const others = await Promise.all([1, 2, 3].map(() => reopen()));
        try {
          const purged = await Promise.all([store, ...others].map((s) => purge(s, purgeCutoffs(now, 730))));
          expect(purged.reduce((n, p) => n + p.leads, 0)).toBe(400);
          expect(purged.reduce((n, p) => n + p.idempotencyKeys, 0)).toBe(400);
          expect(await count(store)).toBe(0);
        } finally {
          await Promise.all(others.map((o) => o.close()));
        }
      });

      it('erases a person while another opening purges the same old leads: each lead removed once, counted once', async () => {
        const now = new Date('2028-06-01T00:00:00Z');
        const person = { email: 'old.customer@example.com' };
        // Leads past retention that still have their 24-hour records (a purge that did not run for a while).
        await inBatches(400, (i) =>
          store.submit(toLeadRecord(valid(quote(person)), meta(new Date(now.getTime() - (800 + i / 1000) * 86_400_000))), {
            key: `kept-${i}`,
            requestHash: 'h',
          }),
        );
        const other = await reopen();
        try {
          const match = { kind: 'email' as const, value: person.email };
          const [purged, erased] = await Promise.all([purge(other, purgeCutoffs(now, 730)), store.deletePerson(match, { kind: 'email', deletedAt: now })]);
          expect(purged.leads + erased.leads).toBe(400);
          expect(await count(store)).toBe(0);
        } finally {
          await other.close();
        }
      });
    });

    describe("outbox: the office's e-mail about each new lead", () => {
      const lease = (now: Date, owner = 'sender-a', limit = 10) => ({ owner, now, until: new Date(now.getTime() + 120_000), limit });
      let notifying: LeadStore;
      beforeEach(async () => {
        notifying = await reopen({ outbox: true });
      });
      afterEach(async () => {
        await notifying.close();
      });

      it('writes a lead and its notification in one transaction: a notification that cannot be written leaves no lead and no key', async () => {
        await sql({
          sqlite: "CREATE TRIGGER outbox_down BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'the outbox is down'); END;",
          postgres: `CREATE FUNCTION outbox_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the outbox is down'; END $$;
                     CREATE TRIGGER outbox_down BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_down();`,
        });
        const body = quote();
        await expect(notifying.submit(toLeadRecord(valid(body), meta()), { key: 'outbox-down', requestHash: 'h' })).rejects.toThrow();
        expect(await count(store)).toBe(0);
        await sql({ sqlite: 'DROP TRIGGER outbox_down', postgres: 'DROP TRIGGER outbox_down ON outbox' });
        // Neither the key nor the duplicate fingerprint was kept: the same submission is new.
        expect((await notifying.submit(toLeadRecord(valid(body), meta()), { key: 'outbox-down', requestHash: 'h' })).kind).toBe('created');
        expect(await notifying.outboxStatus()).toMatchObject({ waiting: 1 });
      });

      it('holds one notification for each new lead, none for a duplicate, a replay or a lost race, and none when the office is not told', async () => {
        const body = quote();
        const first = toLeadRecord(valid(body), meta());
        await notifying.submit(first, { key: 'n-key', requestHash: 'h' });
        expect((await notifying.submit(toLeadRecord(valid(body), meta()), undefined)).kind).toBe('duplicate');
        expect((await notifying.submit(toLeadRecord(valid(quote()), meta()), { key: 'n-key', requestHash: 'h' })).kind).toBe('replayed');
        const raced = await Promise.all(
          Array.from({ length: 6 }, () => notifying.submit(toLeadRecord(valid(quote()), meta()), { key: 'n-race', requestHash: 'h' })),
        );
        const winner = raced.find((o) => o.kind === 'created') as { receipt: { id: string } };
        // Opened without the outbox (SMTP_URL unset): the lead is stored, no notification.
        await store.submit(toLeadRecord(valid(quote()), meta()), undefined);
        expect(await count(store)).toBe(3);
        expect(await notifying.outboxStatus()).toMatchObject({ waiting: 2, failing: 0 });
        const claimed = await notifying.claimNotifications(lease(new Date(Date.now() + 1000)));
        expect(claimed.map((n) => n.lead.id).sort()).toEqual([first.id, winner.receipt.id].sort());
        expect(claimed.find((n) => n.lead.id === first.id)).toEqual({ lead: first, attempts: 0 });
      });

      it("gives each due notification to one sender: never two at once, again after a failure's delay or an expired claim, never after it was sent", async () => {
        const t0 = new Date(Date.now() + 1000);
        const leads = Array.from({ length: 12 }, () => toLeadRecord(valid(quote()), meta()));
        for (const lead of leads) await notifying.submit(lead, undefined);
        const other = await reopen({ outbox: true });
        const a: string[] = [];
        const b: string[] = [];
        try {
          for (let round = 0; round < 6; round++) {
            const [x, y] = await Promise.all([notifying.claimNotifications(lease(t0, 'a', 2)), other.claimNotifications(lease(t0, 'b', 2))]);
            a.push(...x.map((n) => n.lead.id));
            b.push(...y.map((n) => n.lead.id));
          }
          expect([...a, ...b].sort()).toEqual(leads.map((l) => l.id).sort());
          expect(a.filter((id) => b.includes(id))).toEqual([]);
        } finally {
          await other.close();
        }
        expect(await notifying.claimNotifications(lease(t0, 'c'))).toEqual([]);

        const [failed, sent, abandoned] = leads.map((l) => l.id);
        const ownerOf = (id: string) => (a.includes(id) ? 'a' : 'b');
        await notifying.notificationFailed(failed!, ownerOf(failed!), { at: new Date(t0.getTime() + 3_600_000), error: 'ESOCKET ECONNREFUSED' });
        await notifying.notificationSent(sent!, t0);
        // Another sender's claim cannot record a failure.
        await notifying.notificationFailed(abandoned!, 'not-the-owner', { at: t0, error: 'x' });
        expect(await notifying.outboxStatus()).toMatchObject({ waiting: 11, failing: 1 });
        const waiting = await notifying.waitingNotifications(100);
        expect(waiting).toHaveLength(11);
        expect(waiting.find((e) => e.leadId === failed)).toMatchObject({
          formType: 'quote',
          attempts: 1,
          lastError: 'ESOCKET ECONNREFUSED',
          nextAttemptAt: new Date(t0.getTime() + 3_600_000),
        });
        expect(await notifying.waitingNotifications(3)).toHaveLength(3);

        // A minute on, every claim is still held (and the failed one not yet due).
        expect(await notifying.claimNotifications(lease(new Date(t0.getTime() + 60_000), 'd'))).toEqual([]);
        // Past the claims' expiry, the abandoned ones come back; the failed one only when its retry is due.
        const expired = await notifying.claimNotifications(lease(new Date(t0.getTime() + 121_000), 'd', 100));
        expect(expired.map((n) => n.lead.id).sort()).toEqual(
          leads
            .map((l) => l.id)
            .filter((id) => id !== failed && id !== sent)
            .sort(),
        );
        for (const n of expired) await notifying.notificationSent(n.lead.id, t0);
        const retried = await notifying.claimNotifications(lease(new Date(t0.getTime() + 3_600_000), 'e', 100));
        expect(retried).toEqual([{ lead: leads[0], attempts: 1 }]);
        // Sent is sent: it never comes back, and a late failure report cannot undo it.
        await notifying.notificationFailed(sent!, ownerOf(sent!), { at: t0, error: 'x' });
        expect(await notifying.claimNotifications(lease(new Date(t0.getTime() + 86_400_000), 'f', 100))).not.toContainEqual(
          expect.objectContaining({ lead: leads[1] }),
        );
      });

      it("removes a lead's notification with the lead, on a deletion request (naming the e-mails the office already has) and when it is purged", async () => {
        const now = new Date();
        const theirs = toLeadRecord(valid(quote({ email: 'grace.h@example.com' })), meta());
        const theirsMailed = toLeadRecord(valid(contact({ email: 'grace.h@example.com' })), meta());
        const old = toLeadRecord(valid(quote()), meta(new Date(now.getTime() - 800 * 86_400_000)));
        const kept = toLeadRecord(valid(quote()), meta());
        for (const lead of [theirs, theirsMailed, old, kept]) await notifying.submit(lead, undefined);
        await notifying.notificationSent(theirsMailed.id, now);
        const match = { kind: 'email' as const, value: 'grace.h@example.com' };
        expect((await notifying.countPerson(match)).officeEmails).toEqual([theirsMailed.id]);
        expect(await notifying.deletePerson(match, { kind: 'email', deletedAt: now })).toMatchObject({ leads: 2, officeEmails: [theirsMailed.id] });
        await purge(notifying, purgeCutoffs(now, 730));
        expect((await notifying.waitingNotifications(10)).map((e) => e.leadId)).toEqual([kept.id]);
        expect((await notifying.claimNotifications(lease(new Date(now.getTime() + 1000)))).map((n) => n.lead.id)).toEqual([kept.id]);
      });
    });

    describe('service keys: secrets and announcements', () => {
      it('makes a secret once and gives the same one to every opening of the store', async () => {
        const key = await store.secret('test-key');
        expect(key).toHaveLength(32);
        expect(await store.secret('test-key')).toEqual(key);
        expect(await store.secret('another-key')).not.toEqual(key);
        await store.close();
        store = await reopen();
        expect(await store.secret('test-key')).toEqual(key);
      });

      it('remembers the first announcement of a value until it changes', async () => {
        const t0 = new Date('2026-11-22T00:00:00Z');
        expect(await store.announcedAt('sunset', '2028-01-01')).toBeUndefined();
        await store.recordAnnouncement('sunset', '2028-01-01', t0);
        expect(await store.announcedAt('sunset', '2028-01-01')).toEqual(t0);
        expect(await store.announcedAt('sunset', '2029-01-01')).toBeUndefined();
        // Announcing the same value again keeps its first moment; a new value starts afresh.
        const t1 = new Date('2026-12-01T00:00:00Z');
        await store.recordAnnouncement('sunset', '2028-01-01', t1);
        expect(await store.announcedAt('sunset', '2028-01-01')).toEqual(t0);
        await store.recordAnnouncement('sunset', '2029-01-01', t1);
        expect(await store.announcedAt('sunset', '2029-01-01')).toEqual(t1);
        expect(await store.announcedAt('sunset', '2028-01-01')).toBeUndefined();
      });
    });
  });
}

describe('SQLite lead store specifics', () => {
  let dir: string;
  let path: string;
  let store: LeadStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-'));
    path = join(dir, 'nested', 'leads.sqlite');
    store = openSqliteStore(path);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the leads of a store made before references one each, distinct and in the order they came', async () => {
    await store.close();
    const old = join(dir, 'old.sqlite');
    const db = new DatabaseSync(old);
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const m of SQLITE_MIGRATIONS.filter((m) => m.version < 6)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-01-01T00:00:00Z');
    }
    const insert = db.prepare(
      "INSERT INTO leads (id, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent) VALUES (?, ?, ?, '/api/v1/leads', '{}', '+15035550142', 'a@example.com', ?, ?)",
    );
    const consent = JSON.stringify({
      communicationsConsent: true,
      consentTimestamp: null,
      pageUrl: null,
      serverTime: '2026-11-01T00:00:00Z',
      clientAddress: '198.51.100.1',
      userAgent: null,
    });
    for (let i = 0; i < 30; i++)
      insert.run(`lead-${i}`, i % 3 === 0 ? 'support' : 'quote', `2026-11-01T00:00:${String(i).padStart(2, '0')}Z`, `f${i}`, consent);
    db.close();
    store = openSqliteStore(old);
    const references = new Map<string, string>();
    for await (const l of store.exportLeads()) references.set(l.id, l.reference);
    expect(references.size).toBe(30);
    expect(new Set(references.values()).size).toBe(30);
    for (const [id, reference] of references) {
      expect(reference).toMatch(REFERENCE_PATTERN);
      expect(reference[0]).toBe(Number(id.slice(5)) % 3 === 0 ? 'C' : 'Q');
    }
    expect(references.get('lead-0')).toBe('C-3333-34');
    expect(references.get('lead-29')).toBe('Q-3333-49');
  });

  it('opens with WAL and synchronous=FULL, creating its directory', () => {
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version)).toEqual(
      SQLITE_MIGRATIONS.map((m) => m.version),
    );
    db.close();
  });

  it.skipIf(!canMountTmpfs())('refuses a whole batch as unavailable when the disk fills up in the middle of it, and stores nothing of it', async () => {
    const small = join(dir, 'small');
    mkdirSync(small);
    const unmount = mountTmpfs(small, 2048);
    const full = openSqliteStore(join(small, 'leads.sqlite'));
    try {
      // One batch larger than the page cache and the disk: SQLite writes pages before COMMIT, meets
      // the full disk there, and rolls the whole transaction back itself.
      const leads = Array.from({ length: 1500 }, () => toLeadRecord(valid(quote({ notes: 'A roomy house. '.repeat(130) })), meta()));
      const outcomes = await Promise.allSettled(leads.map((lead) => full.submit(lead, undefined)));
      const reasons = outcomes.map((o) => (o.status === 'rejected' ? o.reason : o.value));
      expect(
        reasons.every((r) => r instanceof StoreUnavailableError),
        String(reasons[0]),
      ).toBe(true);
      expect((reasons[0] as Error).message).toMatch(/database or disk is full/);
      expect(await count(full)).toBe(0);
    } finally {
      await full.close();
      unmount();
    }
  });
});

describe.skipIf(!postgresAvailable())('PostgreSQL lead store specifics', () => {
  it('refuses to open where a commit would not mean on disk (synchronous_commit off), naming the setting', async () => {
    const schema = await createSchema();
    try {
      const url = `${schema.url.split('?')[0]}?options=${encodeURIComponent(`-c search_path=${schema.name} -c synchronous_commit=off`)}`;
      await expect(openPostgresStore(url)).rejects.toThrow(/synchronous_commit on \(found fsync=on, synchronous_commit=off\)/);
    } finally {
      await schema.drop();
    }
  });
});
