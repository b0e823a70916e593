/** The lead store contract, one suite run against both real stores: SQLite on a temporary file and PostgreSQL. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { disclosureOf, toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead, type ValidLead } from '../../src/leads/validate.ts';
import type { LeadStore } from '../../src/leads/store.ts';
import { openPostgresStore } from '../../src/store/postgres-store.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/migrations.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { contact, quote } from '../support/fixtures.ts';
import { createSchema, postgresAvailable } from '../support/services.ts';

const valid = (body: unknown): ValidLead => {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.lead;
};
const meta = (now = new Date()) => ({ receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.1', userAgent: 'test', now });

interface StoreFactory {
  name: string;
  skip?: boolean;
  /** Opens a fresh store; `reopen` opens another store on the same data. */
  open(): Promise<{ store: LeadStore; reopen(): Promise<LeadStore>; cleanup(): Promise<void> }>;
}

const factories: StoreFactory[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'store-'));
      const path = join(dir, 'nested', 'leads.sqlite');
      return { store: openSqliteStore(path), reopen: async () => openSqliteStore(path), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'SQLite, one commit per submission (SQLITE_GROUP_COMMIT=off)',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'store-'));
      const path = join(dir, 'leads.sqlite');
      const options = { groupCommit: false };
      return { store: openSqliteStore(path, options), reopen: async () => openSqliteStore(path, options), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      return { store: await openPostgresStore(schema.url), reopen: () => openPostgresStore(schema.url), cleanup: () => schema.drop() };
    },
  },
];

const count = async (store: LeadStore) => {
  let n = 0;
  for await (const _ of store.exportLeads()) n++;
  return n;
};

for (const factory of factories) {
  describe.skipIf(factory.skip)(`${factory.name} lead store`, () => {
    let store: LeadStore;
    let reopen: () => Promise<LeadStore>;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, reopen, cleanup } = await factory.open());
    });
    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    it('stores a lead and exports it with its normalised contact and consent evidence', async () => {
      const lead = toLeadRecord(valid(quote({ email: 'Jane.Doe@Example.com' })), meta());
      expect(await store.submit(lead, undefined)).toMatchObject({ kind: 'created', receipt: { id: lead.id, formType: 'quote', status: 'received' } });
      const exported = [];
      for await (const l of store.exportLeads()) exported.push(l);
      expect(exported).toEqual([lead]);
      expect(exported[0]).toMatchObject({ emailNormalised: 'jane.doe@example.com', phoneE164: '+15035550142', consent: { communicationsConsent: true, clientAddress: '198.51.100.1' } });
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
      const again = toLeadRecord(valid({ ...body, name: `  ${String(body.name).toUpperCase()} `, email: String(body.email).toUpperCase(), phone: '503.555.0142' }), meta());
      expect(await store.submit(again, undefined)).toEqual({ kind: 'duplicate', leadId: first.id });
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

    it('lets exactly one of many concurrent submissions with the same key or the same lead win', async () => {
      const body = quote();
      const sameKey = await Promise.all(Array.from({ length: 8 }, () => store.submit(toLeadRecord(valid(quote()), meta()), { key: 'race', requestHash: 'h' })));
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
      expect(exported.map((l) => [l.consent.channel, l.consent.disclosureVersion, l.disclosure?.text]).sort().reverse()).toEqual([
        ['web-form', disclosure.version, disclosure.text],
        ['web-form', disclosure.version, disclosure.text],
        ['api', null, undefined],
      ]);
    });

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

  it('opens with WAL and synchronous=FULL, creating its directory', () => {
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version)).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
    db.close();
  });
});
