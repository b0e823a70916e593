/**
 * Issue 46, items 4 to 6, on SQLite and PostgreSQL alike: each account has an opaque id (migration
 * 17, the accounts made before it included); one form of a lead makes its changes together, each
 * with its audit line; owners give a lead to a colleague, found by "mine" and by the colleague's id;
 * and the same person's other leads and caught submissions are found in one query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { takeLead, workLead } from '../../src/office/notes.ts';
import { backTo, inboxAddress, readInboxView } from '../../src/office/inbox-filters.ts';
import { heldChangeWords, isHeldPath } from '../../src/office/held-change.ts';
import { OFFICE_PAGES } from '../../src/office/roles.ts';
import { ACCOUNT_ID, SAME_PERSON_PER_KEY, type SuspectedSpam } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { contact, quote, serviceArea } from '../support/fixtures.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

const HASH = 'scrypt$1$1$1$AA==$AA==';
const BOSS = 'boss@example.com';
const HELPER = 'helper@example.com';

/** Each store, over a database whose migrations stopped at 16 and which holds two accounts. */
const stores: Array<{ name: string; skip: boolean; open(): Promise<{ store: Store; cleanup(): Promise<void> }> }> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'office-hand-off-'));
      const path = join(dir, 'leads.sqlite');
      const db = new DatabaseSync(path);
      db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const m of SQLITE_MIGRATIONS.filter((m) => m.version <= 16)) {
        db.exec(m.sql);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-11-01T00:00:00Z');
      }
      for (const [email, role] of [
        [BOSS, 'owner'],
        [HELPER, 'staff'],
      ])
        db.prepare('INSERT INTO office_users (email, password_hash, created_at, role) VALUES (?, ?, ?, ?)').run(email, HASH, '2026-11-01T00:00:00Z', role);
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
      for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version <= 16)) {
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      for (const [email, role] of [
        [BOSS, 'owner'],
        [HELPER, 'staff'],
      ])
        await c.query('INSERT INTO office_users (email, password_hash, created_at, role) VALUES ($1, $2, now(), $3)', [email, HASH, role]);
      await c.end();
      const store = await openPostgresStore(schema.url, TEST_POSTGRES);
      return { store, cleanup: async () => (await store.close(), await schema.drop()) };
    },
  },
];

async function stored(store: Store, body: Record<string, unknown>, now = new Date()): Promise<string> {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now };
  const outcome = await store.submit(toLeadRecord(v.lead, meta, serviceArea()), undefined);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.receipt.reference;
}

function caught(id: string, reference: string, receivedAt: Date): SuspectedSpam {
  return {
    id,
    reference,
    formType: 'quote',
    receivedAt,
    reason: 'sent faster than a person fills it in',
    body: { name: 'Ada Again' },
    meta: { receivedVia: '/quote', channel: 'web-form', clientAddress: '198.51.100.8', userAgent: 'Mozilla/5.0' },
  };
}

for (const kind of stores) {
  describe.skipIf(kind.skip)(`work handed out and the same person on ${kind.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ store, cleanup } = await kind.open()));
    afterEach(() => cleanup());

    it('gives every account an opaque id, the ones made before it too, and keeps it through a new password', async () => {
      const before = await store.listUsers();
      expect(before.map((u) => u.email)).toEqual([BOSS, HELPER]);
      await store.saveUser('new@example.com', HASH, new Date(), undefined, 'staff');
      await store.saveUser(BOSS, HASH, new Date());
      const after = await store.listUsers();
      for (const u of after) expect(u.id, u.email).toMatch(ACCOUNT_ID);
      expect(new Set(after.map((u) => u.id)).size).toBe(3);
      expect(after.find((u) => u.email === BOSS)!.id).toBe(before.find((u) => u.email === BOSS)!.id);
      expect(after.map((u) => u.id).join(' ')).not.toContain('example');
    });

    it('makes one form’s changes together, an audit line each; a lead given to a colleague is theirs, by "mine" and by their id', async () => {
      const ada = await stored(store, quote({ name: 'Ada Given', email: 'ada.given@example.com', phone: '(503) 555-0101' }));
      await stored(store, quote({ name: 'Bob Kept', email: 'bob.kept@example.com', phone: '(503) 555-0102' }));
      const at = new Date('2026-11-24T17:00:00Z');
      const form = { reference: ada, status: 'contacted' as const, owner: HELPER, note: '  Called; wants Tuesdays.  ' };
      expect(await workLead(store, form, BOSS, at)).toEqual({ kind: 'worked', from: 'new', status: 'contacted', owner: 'given', noted: true });
      expect((await store.recent(10)).map((e) => [e.actor, e.action, e.detail])).toEqual([
        [BOSS, 'added a note', `Added a note to ${ada}.`],
        [BOSS, 'set the owner', `Gave ${ada} to ${HELPER}.`],
        [BOSS, 'set a status', `Changed ${ada} from New to Contacted.`],
      ]);
      const [item] = await store.inbox({ reference: ada, limit: 5, offset: 0 });
      expect(item).toMatchObject({ owner: HELPER, status: 'contacted', statusBy: BOSS, firstContact: { at, by: BOSS } });
      expect(item!.notes).toEqual([{ at, by: BOSS, text: 'Called; wants Tuesdays.' }]);
      // "Mine" for the colleague holds what was given to them; the "Taken by" filter finds it by their id, never their e-mail.
      const helperId = (await store.listUsers()).find((u) => u.email === HELPER)!.id;
      const names = async (owner: { email: string } | { id: string } | 'nobody') =>
        (await store.inbox({ owner, limit: 10, offset: 0 })).map((i) => i.lead.fields.name);
      expect(await names({ email: HELPER })).toEqual(['Ada Given']);
      expect(await names({ id: helperId })).toEqual(['Ada Given']);
      expect(await names({ id: 'aaaaaaaaaaaa' })).toEqual([]);
      expect(await names('nobody')).toEqual(['Bob Kept']);
      expect(await store.inboxCount({ owner: { id: helperId } })).toBe(1);
      // Staff take a lead for themselves, and let it go: one line each.
      const own = { ownOnly: true, note: '' };
      expect(await workLead(store, { ...own, reference: ada, owner: null }, HELPER, at)).toMatchObject({ kind: 'worked', owner: 'let go', noted: false });
      expect(await workLead(store, { ...own, reference: ada, owner: HELPER }, HELPER, at)).toMatchObject({ owner: 'taken' });
      expect((await store.recent(2)).map((e) => e.detail)).toEqual([`Took ${ada}.`, `Let go of ${ada}: it is nobody's now.`]);
      // A colleague's lead is not staff's to let go, by this form or by the single one: nothing of it is written.
      const colleague = 'colleague@example.com';
      const forms = { reference: ada, status: 'done' as const, owner: null, note: 'Not mine.', ownOnly: true };
      expect(await workLead(store, forms, colleague, at)).toEqual({ kind: 'taken by a colleague', holder: HELPER });
      expect(await takeLead(store, ada, false, colleague, { now: at, ownOnly: true })).toEqual({ kind: 'taken by a colleague', holder: HELPER });
      // Nothing to change, a note too long or a lead gone: nothing written.
      expect(await workLead(store, { reference: ada, note: '   ' }, HELPER, at)).toEqual({ kind: 'nothing' });
      expect(await workLead(store, { reference: ada, status: 'done', note: 'x'.repeat(2001) }, HELPER, at)).toEqual({ kind: 'too long', length: 2001 });
      expect(await workLead(store, { reference: 'Q-3333-33', status: 'done', owner: HELPER, note: 'Lost.' }, HELPER, at)).toEqual({ kind: 'no such lead' });
      expect(await store.recent(10)).toHaveLength(5);
      const [kept] = await store.inbox({ reference: ada, limit: 1, offset: 0 });
      expect(kept).toMatchObject({ status: 'contacted', owner: HELPER });
      expect(kept!.notes.map((n) => n.text)).not.toContain('Not mine.');
      // An owner hands it on, whoever has it.
      expect(await takeLead(store, ada, false, BOSS, { now: at })).toEqual({ kind: 'done' });
    });

    it("finds the same person's other leads and caught submissions by e-mail or phone, in one query, each key's newest alone", async () => {
      const day = (n: number) => new Date(Date.UTC(2026, 10, n, 17));
      const first = await stored(store, quote({ name: 'Ada Same', email: 'ada.same@example.com', phone: '(503) 555-0111' }), day(1));
      const byEmail = await stored(store, contact({ name: 'Ada S.', email: 'ADA.same@example.com', phone: '(503) 555-0112' }), day(2));
      const byPhone = await stored(store, quote({ name: 'Ada Same', email: 'ada.other@example.com', phone: '503.555.0111' }), day(3));
      const stranger = await stored(store, quote({ name: 'Bea Else', email: 'bea.else@example.com', phone: '(503) 555-0119' }), day(4));
      await store.keepSpam(caught('spam-1', 'Q-KKKK-KK', day(5)), { emailNormalised: '', phoneE164: '+15035550111' });
      await store.keepSpam(caught('spam-2', 'Q-WWWW-WW', day(6)), { emailNormalised: '', phoneE164: '+15035550199' });
      const listed = await store.inbox({ limit: 10, offset: 0 });
      const found = await store.samePerson(listed.map((i) => i.lead));
      const of = (reference: string) => {
        const lead = listed.find((i) => i.lead.reference === reference)!.lead;
        return found
          .filter((m) => (m.emailNormalised === lead.emailNormalised || m.phoneE164 === lead.phoneE164) && !(m.kind === 'lead' && m.reference === reference))
          .map((m) => `${m.kind} ${m.reference}`);
      };
      expect(new Set(of(first))).toEqual(new Set([`lead ${byEmail}`, `lead ${byPhone}`, 'spam Q-KKKK-KK']));
      expect(of(byEmail)).toEqual([`lead ${first}`]);
      expect(new Set(of(byPhone))).toEqual(new Set([`lead ${first}`, 'spam Q-KKKK-KK']));
      // Another person, and an empty e-mail (a caught submission without one), match nothing.
      expect(of(stranger)).toEqual([]);
      expect(found.find((m) => m.reference === 'Q-WWWW-WW')).toBeUndefined();
      expect(found.find((m) => m.reference === first)).toMatchObject({ kind: 'lead', formType: 'quote', receivedAt: day(1) });
      expect(await store.samePerson([])).toEqual([]);
      // A person who sent very many: each key's newest `SAME_PERSON_PER_KEY` alone are read.
      for (let i = 0; i < SAME_PERSON_PER_KEY + 3; i++)
        await stored(store, quote({ name: `Ann Many ${i}`, email: 'ann.many@example.com', phone: `(503) 555-02${10 + i}` }), day(10 + i));
      const many = await store.samePerson([{ emailNormalised: 'ann.many@example.com', phoneE164: '' }]);
      expect(many).toHaveLength(SAME_PERSON_PER_KEY);
      expect(many[0]!.receivedAt).toEqual(day(10 + SAME_PERSON_PER_KEY + 2));
    });
  });
}

describe("the inbox's address and a lead's held form", () => {
  it('keeps an account by its opaque id and a lead by its reference, and drops an e-mail or anything else', () => {
    const kept = (query: string) => inboxAddress(new URLSearchParams(query)).toString();
    expect(kept('owner=k7p2xq9m4abc')).toBe('dropped=owner');
    expect(kept('owner=k7p2xq4m4abc')).toBe('owner=k7p2xq4m4abc');
    expect(kept('owner=mine')).toBe('owner=mine');
    expect(kept('owner=helper%40example.com')).toBe('dropped=owner');
    expect(kept('lead=Q-P7RH-Q4&given=Q-P7RH-Q4&unchanged=Q-P7RH-Q4')).toBe('lead=Q-P7RH-Q4&given=Q-P7RH-Q4&unchanged=Q-P7RH-Q4');
    expect(kept('lead=ada%40example.com')).toBe('dropped=other');
    expect(readInboxView(new URLSearchParams('owner=k7p2xq4m4abc'), BOSS, 'America/Los_Angeles').filter.owner).toEqual({ id: 'k7p2xq4m4abc' });
    expect(readInboxView(new URLSearchParams('owner=mine'), BOSS, 'America/Los_Angeles').filter.owner).toEqual({ email: BOSS });
    // A change's notices are not carried to the next one; the lead asked for is.
    expect(backTo('/office?lead=Q-P7RH-Q4&given=Q-P7RH-Q4&unchanged=Q-P7RH-Q4').search).toBe('?lead=Q-P7RH-Q4');
  });

  it("says a lead's form in words when it is held through a sign-in, and is a staff page", () => {
    const held = (fields: Record<string, string>) => heldChangeWords({ path: '/office/work', fields: Object.entries(fields) });
    const form = { reference: 'Q-P7RH-Q4', 'was-status': 'new', 'was-owner': 'nobody', back: '/office' };
    expect(held({ ...form, status: 'contacted', owner: 'me', note: ' Called. ' })).toBe(
      'Mark Q-P7RH-Q4 as “Contacted”. Take Q-P7RH-Q4 (“I’ll handle it”). Add this note to Q-P7RH-Q4: “Called.”',
    );
    expect(held({ ...form, status: 'new', owner: 'k7p2xq4m4abc', note: '' })).toBe('Give Q-P7RH-Q4 to the colleague you chose.');
    expect(held({ ...form, status: 'new', owner: 'nobody', note: '' })).toBe('Save Q-P7RH-Q4 as it is (nothing to change).');
    expect(isHeldPath('/office/work')).toBe(true);
    expect(OFFICE_PAGES.staff).toContain('/office/work');
  });
});
