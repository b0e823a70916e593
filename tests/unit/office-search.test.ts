/**
 * The office's search that forgives, on SQLite and PostgreSQL alike: a reference with or without
 * dashes, in any case, by any 4-sign fragment; part of a name, e-mail or phone (digits in any
 * format); accents and ø, ß folded both ways; in the inbox and in suspected spam; and the leads
 * stored before the search column (migration 10) found too, once the store has opened.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { fold, inboxSearch } from '../../src/office/search.ts';
import type { SuspectedSpam } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote, serviceArea } from '../support/fixtures.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

async function lead(store: Store, body: Record<string, unknown>, now = new Date()) {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const record = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'test', now }, serviceArea());
  const outcome = await store.submit(record, undefined);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.receipt.reference;
}

const caught = (id: string, reference: string, body: Record<string, unknown>): SuspectedSpam => ({
  id,
  reference,
  formType: 'quote',
  receivedAt: new Date(),
  reason: 'sent faster than a person fills it in',
  body,
  meta: { receivedVia: '/quote', channel: 'web-form', clientAddress: '198.51.100.8', userAgent: 'Mozilla/5.0' },
});

describe('folding what is stored and what is typed', () => {
  it('takes accents off and writes ø, ß, æ out, in any case', () => {
    expect(fold('José Ñúñez')).toBe('jose nunez');
    expect(fold('Bjørn STRASSE Straße ẞ Æsa Œuvre Łódź')).toBe('bjorn strasse strasse ss aesa oeuvre lodz');
  });

  it('reads a reference with or without dashes, a phone in any format, and % as a letter', () => {
    expect(inboxSearch('qp7rhq4')!.text).toEqual(['%qp7rhq4%']);
    expect(inboxSearch('Q-P7RH-Q4')).toEqual({ text: ['%q-p7rh-q4%', '%qp7rhq4%'], referenceStart: 'Q-P7RH-Q4%' });
    expect(inboxSearch('p7r')!.text).toEqual(['%p7r%']);
    expect(inboxSearch('(503) 555-0142')!.text).toEqual(['%(503) 555-0142%', '%5035550142%']);
    expect(inboxSearch('100%')!.text).toEqual(['%100\\%%']);
    // The digits of a reference are not searched as a phone's: "Q-978R" would find every phone with 978 in it.
    expect(inboxSearch('Q-978R')!.text).toEqual(['%q-978r%', '%q978r%']);
    expect(inboxSearch('  ')).toBeUndefined();
  });
});

const stores: Array<{
  name: string;
  skip: boolean;
  open(): Promise<{ store: Store; raw(sql: string): Promise<void>; reopen(): Promise<Store>; cleanup(): Promise<void> }>;
}> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'office-search-'));
      const path = join(dir, 'leads.sqlite');
      let store: Store = openSqliteStore(path);
      return {
        store,
        raw: async (sql) => {
          const db = new DatabaseSync(path);
          db.exec(sql);
          db.close();
        },
        reopen: async () => (await store.close(), (store = openSqliteStore(path))),
        cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })),
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      let store: Store = await openPostgresStore(schema.url, TEST_POSTGRES);
      return {
        store,
        raw: async (sql) => {
          const client = new pg.Client({ connectionString: schema.url });
          await client.connect();
          await client.query(sql);
          await client.end();
        },
        reopen: async () => (await store.close(), (store = await openPostgresStore(schema.url, TEST_POSTGRES))),
        cleanup: async () => (await store.close(), await schema.drop()),
      };
    },
  },
];

for (const kind of stores) {
  describe.skipIf(kind.skip)(`the office's search on ${kind.name}`, () => {
    let opened: Awaited<ReturnType<(typeof stores)[number]['open']>>;
    let store: Store;
    beforeEach(async () => {
      opened = await kind.open();
      store = opened.store;
    });
    afterEach(() => opened.cleanup());
    const names = async (s: Store, search: string) => (await s.inbox({ search, limit: 50, offset: 0 })).map((i) => i.lead.fields.name);

    it('forgives: references without dashes and in any case, fragments, phones in any format, accents both ways', async () => {
      const jose = await lead(store, quote({ name: 'José Álvarez', email: 'jose.alvarez@example.com', phone: '(503) 555-0131' }));
      await lead(store, quote({ name: 'Bjørn Straße', email: 'bjorn@example.com', phone: '(503) 555-0132' }));
      await lead(store, quote({ name: 'Jose Strasse', email: 'strasse@example.com', phone: '(360) 555-0133' }));
      const compact = jose.replace(/-/g, '');
      expect(await names(store, compact.toLowerCase())).toEqual(['José Álvarez']);
      expect(await names(store, compact.slice(2, 6))).toEqual(['José Álvarez']);
      expect(await names(store, jose.toLowerCase())).toEqual(['José Álvarez']);
      expect((await names(store, 'jose')).sort()).toEqual(['Jose Strasse', 'José Álvarez']);
      expect(await names(store, 'JOSÉ ÁL')).toEqual(['José Álvarez']);
      expect(await names(store, 'bjorn st')).toEqual(['Bjørn Straße']);
      expect(await names(store, 'Bjørn')).toEqual(['Bjørn Straße']);
      expect((await names(store, 'strasse')).sort()).toEqual(['Bjørn Straße', 'Jose Strasse']);
      expect((await names(store, 'Straße')).sort()).toEqual(['Bjørn Straße', 'Jose Strasse']);
      expect(await names(store, '503.555.0131')).toEqual(['José Álvarez']);
      expect(await names(store, '+1 360 555 0133')).toEqual(['Jose Strasse']);
      expect(await names(store, '5550132')).toEqual(['Bjørn Straße']);
      expect(await names(store, 'ALVAREZ@EXAMPLE')).toEqual(['José Álvarez']);
      expect(await names(store, 'nobody')).toEqual([]);
    });

    it('searches suspected spam the same way', async () => {
      const body = quote({ name: 'Zoë Ødegård', email: 'zoe@example.com', phone: '(503) 555-0134' });
      await store.keepSpam(caught('0b8a1f4e-5555-4c55-9d7e-2a1b3c4d5e6f', 'Q-P7RH-Q4', body), {
        emailNormalised: 'zoe@example.com',
        phoneE164: '+15035550134',
      });
      const spam = async (search: string) => (await store.listSpam({ search, limit: 10, offset: 0 })).map((s) => s.body.name);
      for (const search of ['zoe odegard', 'ODEGÅRD', 'p7rh', 'QP7RHQ4', '503-555-0134', 'zoe@']) expect(await spam(search), search).toEqual(['Zoë Ødegård']);
      expect(await spam('jose')).toEqual([]);
    });

    it('finds the leads and caught submissions stored before the search column, once the store has opened', async () => {
      await lead(store, quote({ name: 'Åsa Öberg', email: 'asa@example.com', phone: '(503) 555-0135' }));
      await store.keepSpam(caught('0b8a1f4e-6666-4c55-9d7e-2a1b3c4d5e6f', 'Q-KKKK-KK', quote({ name: 'Søren Kierkegaard' })), {
        emailNormalised: 'soren@example.com',
        phoneE164: '+15035550136',
      });
      // As the code before migration 10 left them: no search column filled in.
      await opened.raw('UPDATE leads SET search_text = NULL; UPDATE suspected_spam SET search_text = NULL;');
      expect(await names(store, 'asa')).toEqual([]);
      const again = await opened.reopen();
      expect(await names(again, 'asa oberg')).toEqual(['Åsa Öberg']);
      expect((await again.listSpam({ search: 'soren', limit: 10, offset: 0 })).map((s) => s.body.name)).toEqual(['Søren Kierkegaard']);
    });
  });
}
