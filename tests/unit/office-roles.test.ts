/**
 * The office's roles, on SQLite and PostgreSQL alike: an account is staff or an owner, kept with
 * it, changed only when asked, and known to its session; the accounts made before roles became
 * owners (migration 11). What each role may open is decided in one place (`mayOpen`). Working as a
 * team: notes on a lead (kept with it, erased with it, audited without their text), and who has taken it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mayOpen, OFFICE_PAGES } from '../../src/office/roles.ts';
import { addNote, takeLead } from '../../src/office/notes.ts';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { quote, serviceArea } from '../support/fixtures.ts';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

const HASH = 'scrypt$1$1$1$AA==$AA==';
const SINCE = { seenSince: new Date(0), startedSince: new Date(0) };
const signedIn = (at: Date) => ({ at, actor: 'x@example.com', action: 'signed in', detail: 'Signed in.' }) as const;

describe('what each role may open', () => {
  it('lets staff work the leads, and keeps the export, deletion and the System page for owners', () => {
    for (const path of ['/office', '/office/spam', '/office/search', '/office/status', '/office/sign-out'])
      expect(mayOpen('staff', path), path).toEqual({ allowed: true });
    for (const path of ['/office/export', '/office/export.csv', '/office/delete', '/office/system', '/office/system/', '/office//%65xport', '/office/DELETE'])
      expect(mayOpen('staff', path), path).toMatchObject({ allowed: false });
    for (const path of ['/office/export', '/office/delete', '/office/system']) expect(mayOpen('owner', path)).toEqual({ allowed: true });
  });
});

describe('every office page', () => {
  it('is named as staff’s or as an owner’s, so that no new page is open to staff by being forgotten', () => {
    const pages = readdirSync(join(import.meta.dirname, '../../src/pages/office'))
      .filter((file) => !file.startsWith('['))
      .map((file) => (file === 'index.astro' ? '/office' : `/office/${file.replace(/\.(astro|ts)$/, '')}`));
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) expect([...OFFICE_PAGES.staff, ...OFFICE_PAGES.owners], page).toContain(page);
    expect(OFFICE_PAGES.staff.filter((p) => OFFICE_PAGES.owners.includes(p))).toEqual([]);
  });
});

/** Each store, opened over a database whose migrations stopped at 10 and which holds one account. */
const stores: Array<{ name: string; skip: boolean; open(): Promise<{ store: Store; cleanup(): Promise<void> }> }> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'office-roles-'));
      const path = join(dir, 'leads.sqlite');
      const db = new DatabaseSync(path);
      db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const m of SQLITE_MIGRATIONS.filter((m) => m.version <= 10)) {
        db.exec(m.sql);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-11-01T00:00:00Z');
      }
      db.prepare('INSERT INTO office_users (email, password_hash, created_at) VALUES (?, ?, ?)').run('before@example.com', HASH, '2026-11-01T00:00:00Z');
      db.close();
      const store = openSqliteStore(path);
      return { store, cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      const c = new pg.Client({ connectionString: schema.url });
      await c.connect();
      await c.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version <= 10)) {
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      await c.query('INSERT INTO office_users (email, password_hash, created_at) VALUES ($1, $2, now())', ['before@example.com', HASH]);
      await c.end();
      const store = await openPostgresStore(schema.url, TEST_POSTGRES);
      return { store, cleanup: async () => (await store.close(), await schema.drop()) };
    },
  },
];

for (const kind of stores) {
  describe.skipIf(kind.skip)(`the office's roles on ${kind.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ store, cleanup } = await kind.open()));
    afterEach(() => cleanup());

    it('makes the accounts made before roles owners, keeps each role, and tells each session its role', async () => {
      const now = new Date();
      expect((await store.listUsers()).map((u) => [u.email, u.role])).toEqual([['before@example.com', 'owner']]);
      expect(await store.saveUser('helper@example.com', HASH, now, undefined, 'staff')).toBe(true);
      expect(await store.saveUser('boss@example.com', HASH, now)).toBe(true);
      // A new password alone keeps the role; a role given changes it.
      expect(await store.saveUser('helper@example.com', HASH, now)).toBe(false);
      expect(await store.saveUser('before@example.com', HASH, now, undefined, 'staff')).toBe(false);
      expect((await store.listUsers()).map((u) => [u.email, u.role])).toEqual([
        ['before@example.com', 'staff'],
        ['boss@example.com', 'owner'],
        ['helper@example.com', 'staff'],
      ]);
      await store.startSession('helper-session', 'helper@example.com', HASH, now, signedIn(now));
      await store.startSession('boss-session', 'boss@example.com', HASH, now, signedIn(now));
      expect(await store.touchSession('helper-session', SINCE, now)).toEqual({ email: 'helper@example.com', role: 'staff' });
      expect(await store.touchSession('boss-session', SINCE, now)).toEqual({ email: 'boss@example.com', role: 'owner' });
    });

    it('keeps notes on a lead and who has taken it, filters by owner, and erases the notes with the person', async () => {
      const stored = async (body: Record<string, unknown>) => {
        const v = validateLead(body);
        if (!v.ok) throw new Error(JSON.stringify(v.errors));
        const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now: new Date() };
        const outcome = await store.submit(toLeadRecord(v.lead, meta, serviceArea()), undefined);
        if (outcome.kind !== 'created') throw new Error(outcome.kind);
        return outcome.receipt.reference;
      };
      const ada = await stored(quote({ name: 'Ada Notes', email: 'ada.notes@example.com', phone: '(503) 555-0176' }));
      await stored(quote({ name: 'Bob Nobody', email: 'bob.nobody@example.com', phone: '(503) 555-0177' }));
      const t1 = new Date('2026-11-24T17:00:00Z');
      const t2 = new Date('2026-11-24T18:00:00Z');
      expect(await addNote(store, ada, '  Called, no answer; try tomorrow.  ', 'helper@example.com', t1)).toEqual({ kind: 'added' });
      expect(await addNote(store, ada, 'Wants Tuesdays.', 'boss@example.com', t2)).toEqual({ kind: 'added' });
      expect(await addNote(store, ada, '   ', 'boss@example.com', t2)).toEqual({ kind: 'empty' });
      expect(await addNote(store, ada, 'x'.repeat(2001), 'boss@example.com', t2)).toEqual({ kind: 'too long', length: 2001 });
      expect(await addNote(store, 'Q-3333-33', 'Lost.', 'boss@example.com', t2)).toEqual({ kind: 'no such lead' });
      expect(await takeLead(store, ada, true, 'helper@example.com', { now: t2 })).toEqual({ kind: 'done' });
      expect(await takeLead(store, 'Q-3333-33', true, 'helper@example.com', { now: t2 })).toEqual({ kind: 'no such lead' });
      const [item] = await store.inbox({ search: 'ada notes', limit: 10, offset: 0 });
      expect(item).toMatchObject({
        owner: 'helper@example.com',
        notes: [
          { at: t1, by: 'helper@example.com', text: 'Called, no answer; try tomorrow.' },
          { at: t2, by: 'boss@example.com', text: 'Wants Tuesdays.' },
        ],
      });
      const names = async (owner: { email: string } | 'nobody') => (await store.inbox({ owner, limit: 10, offset: 0 })).map((i) => i.lead.fields.name);
      expect(await names({ email: 'helper@example.com' })).toEqual(['Ada Notes']);
      expect(await names('nobody')).toEqual(['Bob Nobody']);
      expect(await takeLead(store, ada, false, 'helper@example.com', { now: t2, ownOnly: true })).toEqual({ kind: 'done' });
      expect((await names('nobody')).sort()).toEqual(['Ada Notes', 'Bob Nobody']);
      // The audit trail says a note was added, never what it says.
      const trail = await store.recent(10);
      expect(trail.map((e) => e.detail)).toContain(`Added a note to ${ada}.`);
      expect(JSON.stringify(trail)).not.toContain('Tuesdays');
      await store.deletePerson({ kind: 'email', value: 'ada.notes@example.com' }, { kind: 'email', deletedAt: new Date() });
      expect(JSON.stringify(await store.inbox({ limit: 10, offset: 0 }))).not.toContain('Tuesdays');
    });
  });
}
