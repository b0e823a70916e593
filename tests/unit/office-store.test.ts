/**
 * The office's roles of the store, on SQLite and PostgreSQL alike: accounts and sessions that end
 * when idle, signed out or re-passworded; the inbox's search, filters and statuses; suspected spam
 * kept aside, released, erased on request and removed after its time; the audit trail kept and
 * purged like deletion records.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { purge, purgeCutoffs, SESSION_IDLE_MS, SESSION_MAX_MS, SPAM_KEEP_DAYS } from '../../src/leads/retention.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { hashPassword, checkPassword } from '../../src/office/passwords.ts';
import { recallSearch, rememberSearch, sessionUser, SIGN_IN_LIMITS, signIn, signOut, type SignInDeps } from '../../src/office/session.ts';
import { releaseSpam } from '../../src/office/spam.ts';
import { changeStatus } from '../../src/office/status.ts';
import { deleteOnRequest } from '../../src/office/deletion.ts';
import { HELD_CHANGE_MS, HELD_PER_ACCOUNT, heldChangeWords, heldCookie, holdChange, takeHeldChange } from '../../src/office/held-change.ts';
import { seedLeads } from '../support/seed.ts';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { SEARCHES_KEPT, type SuspectedSpam } from '../../src/office/store.ts';
import { CHART_WEEKS, chartSeries, chartWeeks, weekStarts } from '../../src/office/overview.ts';
import { createMemoryLimiter } from '../../src/limiter/memory-limiter.ts';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { contact, promise, quote, serviceArea } from '../support/fixtures.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

const DAY = 86_400_000;
const HASH_OF_NOBODY = 'scrypt$1$1$1$AA==$AA==';
/** The tests' account, signed in: an owner, as every account made without a role. */
const OWNER = { email: 'office@example.com', role: 'owner' };

async function lead(store: Store, body: Record<string, unknown>, now: Date) {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const record = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'test', now }, serviceArea());
  const outcome = await store.submit(record, undefined);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.receipt.reference;
}

function caught(id: string, body: Record<string, unknown>, receivedAt: Date): SuspectedSpam {
  return {
    id,
    reference: 'Q-KKKK-KK',
    formType: 'quote',
    receivedAt,
    reason: 'sent faster than a person fills it in',
    body,
    meta: { receivedVia: '/quote', channel: 'web-form', clientAddress: '198.51.100.8', userAgent: 'Mozilla/5.0' },
  };
}

/** Sign-in on `store`, with fresh throttles of the office's own limits (or of `limits`, smaller, where a test counts attempts). */
const signInOn = (store: Store, limits: Record<keyof typeof SIGN_IN_LIMITS, { points: number; windowSeconds: number }> = SIGN_IN_LIMITS): SignInDeps => ({
  accounts: store,
  sessions: store,
  audit: store,
  limits: {
    client: createMemoryLimiter(limits.client),
    accountFromClient: createMemoryLimiter(limits.accountFromClient),
    account: createMemoryLimiter(limits.account),
  },
});

/**
 * A password's hash at a tenth of the service's scrypt cost: the hash carries its cost, and a
 * sign-in checks it at that cost, so these tests spend their time on the rules, not on scrypt.
 */
const cheapHash = (password: string) => hashPassword(password, { N: 2 ** 11, r: 8, p: 1 });

/** SQL run on the store's own database, as each store spells it. */
type RawSql = (statements: { sqlite: string; postgres: string }) => Promise<void>;

const stores: Array<{ name: string; skip: boolean; open(): Promise<{ store: Store; sql: RawSql; cleanup(): Promise<void> }> }> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'office-store-'));
      const path = join(dir, 'leads.sqlite');
      const store = openSqliteStore(path);
      const sql: RawSql = async ({ sqlite }) => {
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
      const sql: RawSql = async ({ postgres }) => {
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        await client.query(postgres);
        await client.end();
      };
      return { store, sql, cleanup: async () => (await store.close(), await schema.drop()) };
    },
  },
];

/** A trigger that refuses every line of the audit trail, on either store. */
const AUDIT_DOWN = {
  sqlite: "CREATE TRIGGER audit_down BEFORE INSERT ON office_audit BEGIN SELECT RAISE(ABORT, 'the audit trail is down'); END;",
  postgres: `CREATE FUNCTION audit_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit trail is down'; END $$;
             CREATE TRIGGER audit_down BEFORE INSERT ON office_audit FOR EACH ROW EXECUTE FUNCTION audit_down();`,
};

for (const kind of stores) {
  describe.skipIf(kind.skip)(`the office's roles on ${kind.name}`, () => {
    let store: Store;
    let sql: RawSql;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ store, sql, cleanup } = await kind.open()));
    afterEach(() => cleanup());

    it('signs in with the right password only, and a session ends when idle, when signed out, or when the password changes', async () => {
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), new Date());
      const deps = signInOn(store);
      expect((await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2025', client: '198.51.100.1' })).kind).toBe('refused');
      expect((await signIn(deps, { email: 'nobody@example.com', password: 'mop and bucket 2026', client: '198.51.100.1' })).kind).toBe('refused');
      const t0 = new Date('2026-11-24T17:00:00Z');
      const first = await signIn(deps, { email: ' Office@Example.com ', password: 'mop and bucket 2026', client: '198.51.100.1' }, t0);
      if (first.kind !== 'signed_in') throw new Error(first.kind);
      expect(first.email).toBe('office@example.com');
      // Used within the idle period, the session lives on from its last use.
      const later = new Date(t0.getTime() + SESSION_IDLE_MS - 1_000);
      expect(await sessionUser(store, first.token, later)).toEqual(OWNER);
      expect(await sessionUser(store, first.token, new Date(later.getTime() + SESSION_IDLE_MS - 1_000))).toEqual(OWNER);
      // Unused for longer, it has ended.
      expect(await sessionUser(store, first.token, new Date(later.getTime() + 3 * SESSION_IDLE_MS))).toBeUndefined();
      // However busy, a session ends 12 hours after its sign-in.
      const busy = await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.1' }, t0);
      if (busy.kind !== 'signed_in') throw new Error(busy.kind);
      for (let minutes = 50; minutes < 12 * 60; minutes += 50)
        expect(await sessionUser(store, busy.token, new Date(t0.getTime() + minutes * 60_000))).toEqual(OWNER);
      expect(await sessionUser(store, busy.token, new Date(t0.getTime() + SESSION_MAX_MS + 60_000))).toBeUndefined();
      // A new password ends the sessions the old one opened.
      const second = await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.1' }, t0);
      if (second.kind !== 'signed_in') throw new Error(second.kind);
      expect(await store.saveUser('office@example.com', await cheapHash('a new passphrase 2027'), t0)).toBe(false);
      expect(await sessionUser(store, second.token, t0)).toBeUndefined();
      expect(await checkPassword('a new passphrase 2027', (await store.passwordHash('office@example.com'))!)).toBe(true);
      // Removing the account ends its sessions too, and says whether there was one.
      const third = await signIn(deps, { email: 'office@example.com', password: 'a new passphrase 2027', client: '198.51.100.1' }, t0);
      if (third.kind !== 'signed_in') throw new Error(third.kind);
      expect(await store.removeUser('office@example.com')).toBe(true);
      expect(await store.removeUser('office@example.com')).toBe(false);
      expect(await sessionUser(store, third.token, t0)).toBeUndefined();
      // A forged token matches nothing.
      expect(await sessionUser(store, 'x'.repeat(43), t0)).toBeUndefined();
    });

    it("slows an account's sign-ins from a client after five wrong passwords, even with the right one; a colleague elsewhere still signs in", async () => {
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), new Date());
      const deps = signInOn(store);
      const guesses = Array.from({ length: 5 }, (_, i) => signIn(deps, { email: 'office@example.com', password: `guess ${i}`, client: '198.51.100.66' }));
      expect((await Promise.all(guesses)).map((o) => o.kind)).toEqual(Array(5).fill('refused'));
      expect(await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.66' })).toMatchObject({
        kind: 'throttled',
      });
      expect((await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '203.0.113.7' })).kind).toBe('signed_in');
    });

    it("refuses a client over its own limit without spending the account's attempts", async () => {
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), new Date());
      // The rule, with a client's limit of 4 rather than 20: each attempt on an unknown account costs a whole scrypt.
      const limits = { ...SIGN_IN_LIMITS, client: { ...SIGN_IN_LIMITS.client, points: 4 } };
      const deps = signInOn(store, limits);
      // The client uses up its own 20 on other accounts, then keeps hammering this one.
      const others = Array.from({ length: limits.client.points }, (_, i) =>
        signIn(deps, { email: `nobody${i}@example.com`, password: 'guess', client: '198.51.100.70' }),
      );
      expect((await Promise.all(others)).map((o) => o.kind)).toEqual(Array(limits.client.points).fill('refused'));
      for (let i = 0; i < 30; i++)
        expect(await signIn(deps, { email: 'office@example.com', password: 'guess', client: '198.51.100.70' })).toMatchObject({ kind: 'throttled' });
      // None of those reached the account: its own attempts are all there for its owner.
      expect((await deps.limits.account.peek('office@example.com')).remaining).toBe(SIGN_IN_LIMITS.account.points);
      expect((await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '203.0.113.8' })).kind).toBe('signed_in');
    });

    it("stops guesses spread over many clients at the account's own limit", async () => {
      await store.saveUser('office@example.com', 'scrypt$1$1$1$AA==$AA==', new Date());
      const deps = signInOn(store);
      const tries = Array.from({ length: SIGN_IN_LIMITS.account.points + 5 }, (_, i) =>
        signIn(deps, { email: 'office@example.com', password: 'guess', client: `2001:db8:${i.toString(16)}::1` }),
      );
      const outcomes = await Promise.all(tries);
      expect(outcomes.filter((o) => o.kind === 'refused')).toHaveLength(SIGN_IN_LIMITS.account.points);
      expect(outcomes.filter((o) => o.kind === 'throttled')).toHaveLength(5);
    });

    it('starts no session with a password that was changed while the sign-in was being checked', async () => {
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), new Date());
      const deps = signInOn(store);
      // The operator sets a new password just after the sign-in has read the old one's hash.
      const racing: SignInDeps = {
        ...deps,
        accounts: {
          passwordHash: async (email) => {
            const old = await store.passwordHash(email);
            await store.saveUser('office@example.com', await cheapHash('a new passphrase 2027'), new Date());
            return old;
          },
        },
      };
      const outcome = await signIn(racing, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.80' });
      expect(outcome.kind).toBe('refused');
      expect((await store.listUsers())[0]!.lastSignInAt).toBeUndefined();
    });

    it('records each refused sign-in with the account tried and the client, never the password', async () => {
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), new Date());
      const deps = signInOn(store);
      await signIn(deps, { email: 'office@example.com', password: 'secret guess 41', client: '198.51.100.81' });
      await signIn(deps, { email: 'nobody@example.com', password: 'secret guess 42', client: '2001:db8:5::9' });
      const refused = (await store.recent(10)).filter((e) => e.action === 'sign-in refused');
      expect(refused.map((e) => [e.actor, e.detail])).toEqual([
        ['nobody@example.com', 'Refused a sign-in from 2001:db8:5::9: a wrong password, or no such account.'],
        ['office@example.com', 'Refused a sign-in from 198.51.100.81: a wrong password, or no such account.'],
      ]);
      expect(JSON.stringify(await store.recent(10))).not.toContain('secret guess');
    });

    it("keeps a session's searches under handles of its own, ending with it and with any deletion on request", async () => {
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), new Date());
      const deps = signInOn(store);
      const mine = await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.82' });
      const theirs = await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.83' });
      if (mine.kind !== 'signed_in' || theirs.kind !== 'signed_in') throw new Error('sign-in');
      const handle = await rememberSearch(store, mine.token, 'ada@example.com');
      expect(handle).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(await recallSearch(store, mine.token, handle)).toBe('ada@example.com');
      // Another session cannot read it, nor can a made-up handle.
      expect(await recallSearch(store, theirs.token, handle)).toBeUndefined();
      expect(await recallSearch(store, mine.token, "x' OR '1'='1")).toBeUndefined();
      // The newest are kept for the back button; the oldest go.
      const handles = [];
      for (let i = 0; i < SEARCHES_KEPT; i++) handles.push(await rememberSearch(store, mine.token, `search ${i}`));
      expect(await recallSearch(store, mine.token, handle)).toBeUndefined();
      expect(await recallSearch(store, mine.token, handles[0]!)).toBe('search 0');
      // A deletion on request forgets every search (what was typed may have been the person's).
      await store.deletePerson({ kind: 'email', value: 'ada@example.com' }, { kind: 'email', deletedAt: new Date() });
      expect(await recallSearch(store, mine.token, handles.at(-1)!)).toBeUndefined();
      // Signing out ends the session's searches with it.
      const again = await rememberSearch(store, theirs.token, 'bob');
      await signOut(store, theirs.token, 'office@example.com');
      expect(await recallSearch(store, theirs.token, again)).toBeUndefined();
    });

    it('holds a change sent after its session ended for that account alone, shows it once, and forgets it with any deletion on request', async () => {
      const now = new Date('2026-11-24T12:00:00Z');
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), now);
      const mine = await signIn(signInOn(store), { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.84' }, now);
      if (mine.kind !== 'signed_in') throw new Error('sign-in');
      const form = (fields: Record<string, string>) => {
        const data = new FormData();
        for (const [name, value] of Object.entries(fields)) data.append(name, value);
        return data;
      };
      const limit = createMemoryLimiter({ points: 120, windowSeconds: 60 });
      const hold = async (token: string | undefined, path: string, data: FormData, at = now) => {
        const outcome = await holdChange(store, limit, token, path, data, at);
        return outcome.kind === 'held' ? outcome.handle : undefined;
      };
      const cookieOf = (handle: string | undefined) => heldCookie(handle, false).split(';', 1)[0]!;
      const note = () => form({ reference: 'Q-P7RH-Q4', note: 'Called: try Friday 10am.', back: '/office' });
      // Without the cookie of a session that was, nothing is held: a request from anyone else writes nothing.
      expect(await hold(undefined, '/office/note', note())).toBeUndefined();
      expect(await hold('A'.repeat(43), '/office/note', note())).toBeUndefined();
      const handle = await hold(mine.token, '/office/note', note());
      expect(handle).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const held = await takeHeldChange(store, cookieOf(handle), 'office@example.com', new Date(now.getTime() + 60_000));
      expect(held).toEqual({
        path: '/office/note',
        fields: [
          ['reference', 'Q-P7RH-Q4'],
          ['note', 'Called: try Friday 10am.'],
          ['back', '/office'],
        ],
      });
      expect(heldChangeWords(held!)).toBe('Add this note to Q-P7RH-Q4: “Called: try Friday 10am.”');
      // Shown once; an unknown or made-up handle finds nothing.
      expect(await takeHeldChange(store, cookieOf(handle), 'office@example.com', now)).toBeUndefined();
      expect(await takeHeldChange(store, `office_held=${'A'.repeat(32)}`, 'office@example.com', now)).toBeUndefined();
      expect(await takeHeldChange(store, "office_held=x' OR '1'='1", 'office@example.com', now)).toBeUndefined();
      // Another account signed in on the same browser is not shown it, and it is gone for good.
      const theirs = await hold(mine.token, '/office/status', form({ reference: 'Q-P7RH-Q4', status: 'done' }));
      expect(await takeHeldChange(store, cookieOf(theirs), 'colleague@example.com', now)).toBeUndefined();
      expect(await takeHeldChange(store, cookieOf(theirs), 'office@example.com', now)).toBeUndefined();
      // A deletion is held as its search alone: its tap shows the list again before anything is deleted.
      const deletion = await hold(mine.token, '/office/delete', form({ person: 'ada@example.com', confirm: 'yes', lead: 'lead-1' }));
      const heldDeletion = await takeHeldChange(store, cookieOf(deletion), 'office@example.com', now);
      expect(heldDeletion).toEqual({ path: '/office/delete', fields: [['person', 'ada@example.com']] });
      expect(heldChangeWords(heldDeletion!)).toContain('you will see it all before anything is deleted');
      // Past its time, it is not shown.
      const late = await hold(mine.token, '/office/status', form({ reference: 'Q-P7RH-Q4', status: 'done' }));
      expect(await takeHeldChange(store, cookieOf(late), 'office@example.com', new Date(now.getTime() + HELD_CHANGE_MS + 1000))).toBeUndefined();
      // A deletion on request forgets every held change (a note may name the person).
      const pending = await hold(mine.token, '/office/note', form({ reference: 'Q-P7RH-Q4', note: 'Ada asked for Fridays.' }));
      await store.deletePerson({ kind: 'email', value: 'ada@example.com' }, { kind: 'email', deletedAt: now });
      expect(await takeHeldChange(store, cookieOf(pending), 'office@example.com', now)).toBeUndefined();
      // The purge removes what was held longer than any session stays idle (the one session here is in use: it is not purged).
      await hold(mine.token, '/office/status', form({ reference: 'Q-P7RH-Q4', status: 'done' }), new Date(now.getTime() - 2 * SESSION_IDLE_MS));
      expect((await purge(store, purgeCutoffs(now, 730))).sessions).toBe(1);
    });

    /** The bounds of a hold at `at`, as `holdChange` sets them: a session ended at most 15 minutes ago, `max` across the office. */
    const rules = (at: Date, max: number, allow: (email: string) => Promise<boolean> = async () => true) => ({
      seenSince: new Date(at.getTime() - SESSION_IDLE_MS - HELD_CHANGE_MS),
      startedSince: new Date(at.getTime() - SESSION_MAX_MS - HELD_CHANGE_MS),
      keepSince: new Date(at.getTime() - HELD_CHANGE_MS),
      perAccount: HELD_PER_ACCOUNT,
      max,
      allow,
    });
    const signedInAt = (email: string, at: Date) => ({ at, actor: email, action: 'signed in', detail: '' }) as const;

    it('holds no more changes than the office takes, holds many at once without losing one, and none for a session that never was', async () => {
      const now = new Date('2026-11-24T12:00:00Z');
      await store.saveUser('office@example.com', 'scrypt$1$1$1$AA==$AA==', now);
      await store.startSession('ended-session', 'office@example.com', 'scrypt$1$1$1$AA==$AA==', now, signedInAt('office@example.com', now));
      const change = { path: '/office/status', fields: [['status', 'done']] as Array<[string, string]> };
      expect(await store.holdChange('hash-x', 'no-such-session', change, now, rules(now, 3))).toBe(false);
      for (let i = 0; i < 3; i++) expect(await store.holdChange(`hash-${i}`, 'ended-session', change, now, rules(now, 3))).toBe(true);
      expect(await store.holdChange('hash-3', 'ended-session', change, now, rules(now, 3))).toBe(false);
      // Once the old ones are past their time, there is room again; sent all at once, every one is kept (none waits on another for ever).
      const later = new Date(now.getTime() + HELD_CHANGE_MS + 1000);
      const together = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.holdChange(`hash-at-once-${i}`, 'ended-session', change, later, rules(later, 100))),
      );
      expect(together).toEqual(Array(8).fill(true));
      for (let i = 0; i < 8; i++) expect(await store.takeHeldChange(`hash-at-once-${i}`, now, 'office@example.com')).toEqual(change);
    });

    it('holds for a session that ended at most 15 minutes ago, asks the change limit first, and keeps an account to its newest 20', async () => {
      const t0 = new Date('2026-11-24T12:00:00Z');
      for (const email of ['office@example.com', 'colleague@example.com']) {
        await store.saveUser(email, HASH_OF_NOBODY, t0);
        await store.startSession(`${email}-session`, email, HASH_OF_NOBODY, t0, signedInAt(email, t0));
      }
      const change = { path: '/office/note', fields: [['note', 'Called.']] as Array<[string, string]> };
      // Ended an hour after it was last seen: 15 minutes more, and no longer.
      const ended = new Date(t0.getTime() + SESSION_IDLE_MS);
      expect(await store.holdChange('late', 'office@example.com-session', change, ended, rules(new Date(ended.getTime() + HELD_CHANGE_MS + 1), 500))).toBe(
        false,
      );
      // The account's change limit is asked, with the account, before anything is held; refused, nothing is.
      const asked: string[] = [];
      const refuse = async (email: string) => (asked.push(email), false);
      expect(await store.holdChange('refused', 'office@example.com-session', change, ended, rules(ended, 500, refuse))).toBe(false);
      expect(asked).toEqual(['office@example.com']);
      expect(await store.takeHeldChange('refused', t0, 'office@example.com')).toBeUndefined();
      // 25 from one account: its newest 20 are kept, the oldest forgotten first.
      const at = (i: number) => new Date(ended.getTime() + i * 1000);
      for (let i = 0; i < 25; i++) expect(await store.holdChange(`mine-${i}`, 'office@example.com-session', change, at(i), rules(at(i), 500))).toBe(true);
      // The office's cap is the last bound: full, a colleague's is refused, while the account itself makes room from its own.
      expect(await store.holdChange('theirs', 'colleague@example.com-session', change, at(25), rules(at(25), 20))).toBe(false);
      expect(await store.holdChange('mine-25', 'office@example.com-session', change, at(25), rules(at(25), 20))).toBe(true);
      const kept = [];
      for (let i = 0; i <= 25; i++) if (await store.takeHeldChange(`mine-${i}`, t0, 'office@example.com')) kept.push(i);
      expect(kept).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
    });

    it("lists suspected spam a page at a time, found with the inbox's search", async () => {
      const at = (minutes: number) => new Date(Date.UTC(2026, 10, 24, 12, minutes));
      for (let i = 0; i < 30; i++)
        await store.keepSpam(caught(`0b8a1f4e-${String(i).padStart(4, '0')}-4c55-9d7e-2a1b3c4d5e6f`, { ...quote(), name: `Flood ${i}` }, at(i)), {
          emailNormalised: `flood${i}@example.com`,
          phoneE164: '+15035550100',
        });
      await store.keepSpam(caught('0b8a1f4e-9999-4c55-9d7e-2a1b3c4d5e6f', { ...quote(), name: 'Zoë Real-Person', phone: '(503) 555-0199' }, at(0)), {
        emailNormalised: 'zoe@example.com',
        phoneE164: '+15035550199',
      });
      const page = async (search: string | undefined, offset = 0) => (await store.listSpam({ search, limit: 25, offset })).map((s) => String(s.body.name));
      expect(await page(undefined)).toHaveLength(25);
      expect(await page(undefined, 25)).toHaveLength(6);
      expect(await page('ZOË')).toEqual(['Zoë Real-Person']);
      expect(await page('zoe@')).toEqual(['Zoë Real-Person']);
      expect(await page('555 0199')).toEqual(['Zoë Real-Person']);
      expect(await page('Flood 2')).toEqual([
        'Flood 29',
        'Flood 28',
        'Flood 27',
        'Flood 26',
        'Flood 25',
        'Flood 24',
        'Flood 23',
        'Flood 22',
        'Flood 21',
        'Flood 20',
        'Flood 2',
      ]);
    });

    it("filters by the home's ZIP code and by a visit wanted in a week, keeps whether the home was in the area, and forgets it all on deletion", async () => {
      const at = new Date('2026-11-25T18:00:00Z');
      await lead(store, { ...quote(), name: 'In Town', postalCode: '97201-1234', preferredDates: ['2026-11-28', '2026-12-20'], frequency: 'weekly' }, at);
      await lead(store, { ...quote(), name: 'Far Away', email: 'far@example.com', postalCode: '10001', preferredDates: ['2026-12-02'] }, at);
      await lead(store, { ...quote(), name: 'No Where', email: 'nowhere@example.com' }, at);
      const find = async (q: Partial<Parameters<Store['inbox']>[0]>) => (await store.inbox({ limit: 50, offset: 0, ...q })).map((i) => i.lead.fields.name);
      expect(await find({ postalCode: '97201' })).toEqual(['In Town']);
      expect(await find({ postalCode: '10001' })).toEqual(['Far Away']);
      expect(await find({ visitBetween: { from: '2026-11-23', to: '2026-11-29' } })).toEqual(['In Town']);
      expect(await find({ visitBetween: { from: '2026-11-30', to: '2026-12-06' } })).toEqual(['Far Away']);
      expect(await find({ visitBetween: { from: '2026-12-07', to: '2026-12-13' } })).toEqual([]);
      const byName = Object.fromEntries((await store.inbox({ limit: 50, offset: 0 })).map((i) => [i.lead.fields.name, i.lead]));
      expect(byName['In Town']).toMatchObject({
        inServiceArea: true,
        fields: { postalCode: '97201-1234', preferredDates: ['2026-11-28', '2026-12-20'], frequency: 'weekly' },
      });
      expect(byName['Far Away']!.inServiceArea).toBe(false);
      expect(byName['No Where']).not.toHaveProperty('inServiceArea');
      await store.deletePerson({ kind: 'email', value: 'far@example.com' }, { kind: 'email', deletedAt: at });
      expect(await find({ postalCode: '10001' })).toEqual([]);
    });

    it('counts attempts sent all at once before checking any: a burst gets no more tries than the limit', async () => {
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), new Date());
      const deps = signInOn(store);
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, i) => signIn(deps, { email: 'office@example.com', password: `guess ${i}`, client: '198.51.100.50' })),
      );
      expect(burst.filter((o) => o.kind === 'refused')).toHaveLength(5);
      expect(burst.filter((o) => o.kind === 'throttled')).toHaveLength(7);
    });

    it('finds leads by part of a name, e-mail, phone or reference, filters them, and keeps who set which status', async () => {
      const t = (d: string) => new Date(`2026-11-${d}T18:00:00Z`);
      const ada = await lead(store, { ...quote(), name: 'Ada Lovelace', email: 'ada@example.com', phone: '(503) 555-0123' }, t('01'));
      const bob = await lead(store, { ...contact(), name: 'Bob O_Neil', email: 'bob@example.com', phone: '(360) 555-0188' }, t('10'));
      await lead(store, { ...quote(), name: '100% Clean', email: 'pct@example.com', phone: '(503) 555-0177' }, t('20'));
      const find = async (q: Partial<Parameters<Store['inbox']>[0]>) => (await store.inbox({ limit: 50, offset: 0, ...q })).map((i) => i.lead.fields.name);
      expect(await find({})).toEqual(['100% Clean', 'Bob O_Neil', 'Ada Lovelace']);
      expect(await find({ search: 'lovel' })).toEqual(['Ada Lovelace']);
      expect(await find({ search: 'BOB@' })).toEqual(['Bob O_Neil']);
      expect(await find({ search: '555-0188' })).toEqual(['Bob O_Neil']);
      expect(await find({ search: ada.toLowerCase() })).toEqual(['Ada Lovelace']);
      // What the office types is text: % and _ are no wildcards.
      expect(await find({ search: '%' })).toEqual(['100% Clean']);
      expect(await find({ search: 'o_n' })).toEqual(['Bob O_Neil']);
      expect(await find({ form: 'support' })).toEqual(['Bob O_Neil']);
      expect(await find({ since: t('05'), until: t('15') })).toEqual(['Bob O_Neil']);
      expect(await find({ limit: 1, offset: 1 })).toEqual(['Bob O_Neil']);

      expect(await changeStatus(store, { reference: bob, status: 'contacted' }, 'office@example.com', t('11'))).toEqual({ kind: 'changed', from: 'new' });
      expect(await changeStatus(store, { reference: 'Q-3333-33', status: 'done' }, 'office@example.com', t('11'))).toEqual({ kind: 'no such lead' });
      expect((await store.recent(5)).map((e) => [e.action, e.detail])).toEqual([['set a status', `Changed ${bob} from New to Contacted.`]]);
      const [item] = await store.inbox({ status: 'contacted', limit: 50, offset: 0 });
      expect(item).toMatchObject({ status: 'contacted', statusBy: 'office@example.com', statusAt: t('11') });
      expect(await find({ status: 'new' })).toEqual(['100% Clean', 'Ada Lovelace']);
    });

    it("counts a view, the leads of each status and of today, and the leads of each week by form and service, in the office's weeks", async () => {
      const zone = 'America/Los_Angeles';
      const now = new Date('2026-11-25T20:00:00Z'); // Wednesday 25 November, noon in Portland
      const weeks = weekStarts(now, zone);
      expect(weeks).toHaveLength(CHART_WEEKS + 1);
      // Monday 23 November began at 08:00 UTC in Portland; the first of the twelve weeks eleven Mondays before, in daylight time (07:00 UTC).
      expect(weeks.at(-2)!.toISOString()).toBe('2026-11-23T08:00:00.000Z');
      expect(weeks[0]!.toISOString()).toBe('2026-09-07T07:00:00.000Z');
      const services = ['Standard clean', 'Deep clean'];
      await store.keepOfficeClock({ promise: { ...promise(), timeZone: zone }, services });
      const at = (iso: string) => new Date(iso);
      const sent = [
        [{ ...quote(), service: 'Deep clean' }, at('2026-11-25T17:00:00Z')],
        [{ ...quote(), service: 'Deep clean' }, at('2026-11-24T17:00:00Z')],
        [{ ...quote(), service: 'Standard clean' }, at('2026-11-23T08:30:00Z')], // Monday 00:30 in Portland: this week
        [{ ...quote(), service: 'Window washing' }, at('2026-11-25T09:00:00Z')], // today began at 08:00 UTC
        [{ ...contact() }, at('2026-11-25T19:00:00Z')],
        [{ ...quote(), service: 'Deep clean' }, at('2026-11-23T07:30:00Z')], // Monday in UTC, Sunday 23:30 in Portland: last week
        [{ ...quote(), service: 'Standard clean' }, at('2026-09-07T07:30:00Z')], // the first of the twelve weeks
        [{ ...quote(), service: 'Standard clean' }, at('2026-09-07T06:30:00Z')], // before them: not in the chart
      ] as const;
      const refs = [];
      for (const [body, when] of sent) refs.push(await lead(store, body, when));
      const counted = await store.leadsPerWeek(weeks, services);
      const chart = chartWeeks(weeks, counted, chartSeries(services), zone);
      expect(chart.map((w) => w.monday)).toEqual([
        '2026-09-07', '2026-09-14', '2026-09-21', '2026-09-28', '2026-10-05', '2026-10-12',
        '2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23',
      ]); // prettier-ignore
      // Standard, Deep, another service, contact messages.
      expect(chart[11]).toMatchObject({ label: 'Nov 23', counts: [1, 2, 1, 1], total: 5 });
      expect(chart[10]).toMatchObject({ counts: [0, 1, 0, 0], total: 1 });
      expect(chart[0]).toMatchObject({ counts: [1, 0, 0, 0], total: 1 });
      expect(chart.reduce((sum, w) => sum + w.total, 0)).toBe(7);
      // The store groups: no more rows than weeks, forms and services met.
      expect(counted.length).toBeLessThanOrEqual(6);
      expect(counted.find((c) => c.week === 11 && c.form === 'quote' && c.service === undefined)?.count).toBe(1);

      await changeStatus(store, { reference: refs[0]!, status: 'contacted' }, 'office@example.com', now);
      await changeStatus(store, { reference: refs[5]!, status: 'done' }, 'office@example.com', now);
      const today = weeks.at(-2)!.getTime() + 2 * DAY; // Wednesday 25 November began at 08:00 UTC
      expect(await store.statusCounts(new Date(today), now)).toEqual({ new: 6, contacted: 1, done: 1, since: 3, late: 0 });
      // A view's count is the count of what it lists, whatever its page.
      for (const view of [
        {},
        { status: 'new' as const },
        { form: 'quote' as const, since: weeks.at(-2) },
        { search: 'jane doe' },
        { owner: 'nobody' as const },
      ]) {
        const all = await store.inbox({ ...view, limit: 100, offset: 0 });
        expect(await store.inboxCount(view), JSON.stringify(view)).toBe(all.length);
      }
      expect(await store.inboxCount({ status: 'done' })).toBe(1);
      expect(await store.inboxCount({ form: 'support' })).toBe(1);
      expect(await store.inboxCount({ search: 'nobody-at-all' })).toBe(0);
    });

    it('keeps the counts by status true as leads come, change status, are deleted on request, purged and released from spam', async () => {
      const now = new Date();
      const old = new Date(now.getTime() - 800 * DAY);
      const counted = async () => {
        const { since: _since, late: _late, ...byStatus } = await store.statusCounts(new Date(now.getTime() - DAY), now);
        return byStatus;
      };
      const truth = async () => {
        const all = await store.inbox({ limit: 1000, offset: 0 });
        return { new: 0, contacted: 0, done: 0, ...Object.fromEntries(['new', 'contacted', 'done'].map((s) => [s, all.filter((l) => l.status === s).length])) };
      };
      const refs = await seedLeads(store, 6, { body: (i) => ({ ...quote(), email: `count${i}@example.com` }) });
      const [oldRef] = await seedLeads(store, 1, { body: () => ({ ...quote(), email: 'old-count@example.com' }), receivedAt: () => old });
      await changeStatus(store, { reference: refs[0]!, status: 'contacted' }, 'office@example.com', now);
      await changeStatus(store, { reference: refs[1]!, status: 'done' }, 'office@example.com', now);
      await changeStatus(store, { reference: refs[1]!, status: 'done' }, 'office@example.com', now); // no change: counted once
      await changeStatus(store, { reference: oldRef!, status: 'done' }, 'office@example.com', now);
      expect(await counted()).toEqual({ new: 4, contacted: 1, done: 2 });
      await deleteOnRequest(store, { kind: 'email', value: 'count0@example.com' }, 'office@example.com');
      expect(await counted()).toEqual({ new: 4, contacted: 0, done: 2 });
      expect((await purge(store, purgeCutoffs(now, 730))).leads).toBe(1);
      expect(await counted()).toEqual({ new: 4, contacted: 0, done: 1 });
      await store.keepSpam(caught('0b8a1f4e-8888-4c55-9d7e-2a1b3c4d5e6f', { ...quote(), name: 'Caught Counted' }, now), {
        emailNormalised: 'caught-counted@example.com',
        phoneE164: '+15035550142',
      });
      await releaseSpam(store, '0b8a1f4e-8888-4c55-9d7e-2a1b3c4d5e6f', 'office@example.com', serviceArea());
      expect(await counted()).toEqual({ new: 5, contacted: 0, done: 1 });
      expect(await counted()).toEqual(await truth());
    });

    it('writes each change of the office and its line in the audit trail together: when the line cannot be written, nothing changes', async () => {
      const [reference] = await seedLeads(store, 1, { body: () => ({ ...quote(), email: 'together@example.com' }) });
      await store.keepSpam(caught('0b8a1f4e-7777-4c55-9d7e-2a1b3c4d5e6f', { ...quote(), name: 'Caught Carla' }, new Date()), {
        emailNormalised: 'carla@example.com',
        phoneE164: '+15035550142',
      });
      await store.saveUser('office@example.com', await cheapHash('mop and bucket 2026'), new Date());
      await sql(AUDIT_DOWN);
      const office = 'office@example.com';
      await expect(changeStatus(store, { reference: reference!, status: 'done' }, office)).rejects.toThrow();
      expect((await store.inbox({ limit: 5, offset: 0 }))[0]!.status).toBe('new');
      await expect(deleteOnRequest(store, { kind: 'email', value: 'together@example.com' }, office)).rejects.toThrow();
      expect(await store.inbox({ limit: 5, offset: 0 })).toHaveLength(1);
      expect(await store.deletionRecords()).toEqual([]);
      await expect(releaseSpam(store, '0b8a1f4e-7777-4c55-9d7e-2a1b3c4d5e6f', office, serviceArea())).rejects.toThrow();
      expect((await store.listSpam({ limit: 5, offset: 0 })).map((x) => x.body.name)).toEqual(['Caught Carla']);
      expect(await store.inbox({ limit: 5, offset: 0 })).toHaveLength(1);
      const outcome = await signIn(signInOn(store), { email: office, password: 'mop and bucket 2026', client: '198.51.100.90' }).catch((err: Error) => err);
      expect(outcome).toBeInstanceOf(Error);
      expect((await store.listUsers())[0]!.lastSignInAt).toBeUndefined();
    });

    it('keeps suspected spam aside, releases it as a lead under the reference its sender was shown, and erases it with the person', async () => {
      const at = new Date();
      const body = { ...quote(), name: 'Quick Quentin', email: 'quentin@example.com', phone: '(503) 555-0144' };
      await store.keepSpam(caught('0b8a1f4e-1111-4c55-9d7e-2a1b3c4d5e6f', body, at), { emailNormalised: 'quentin@example.com', phoneE164: '+15035550144' });
      expect((await store.inbox({ limit: 50, offset: 0 })).length).toBe(0);
      expect((await store.listSpam({ limit: 10, offset: 0 })).map((s) => s.body.name)).toEqual(['Quick Quentin']);
      const release = await releaseSpam(store, '0b8a1f4e-1111-4c55-9d7e-2a1b3c4d5e6f', 'office@example.com', serviceArea());
      // Caught with no consent wording on record, it is taken in with none.
      expect(release).toEqual({ kind: 'released', reference: 'Q-KKKK-KK', wordingShown: false });
      expect(await store.listSpam({ limit: 10, offset: 0 })).toEqual([]);
      const [item] = await store.inbox({ limit: 50, offset: 0 });
      expect(item!.lead).toMatchObject({ reference: 'Q-KKKK-KK', receivedAt: at.toISOString() });
      expect(item!.lead.consent.channel).toBe('web-form');
      expect((await store.recent(5))[0]).toMatchObject({ action: 'released from spam', detail: 'Moved Q-KKKK-KK from suspected spam to the inbox.' });
      // Gone is said as such.
      expect(await releaseSpam(store, '0b8a1f4e-1111-4c55-9d7e-2a1b3c4d5e6f', 'office@example.com', serviceArea())).toEqual({
        kind: 'gone',
      });

      // A deletion on request takes the person's suspected spam too.
      await store.keepSpam(caught('0b8a1f4e-2222-4c55-9d7e-2a1b3c4d5e6f', body, at), { emailNormalised: 'quentin@example.com', phoneE164: '+15035550144' });
      const match = { kind: 'phone' as const, value: '+15035550144' };
      expect(await store.countPerson(match)).toMatchObject({ leads: 1, suspectedSpam: 1 });
      expect((await store.personLeads(match)).map((l) => l.fields.name)).toEqual(['Quick Quentin']);
      expect(await store.deletePerson(match, { kind: 'phone', deletedAt: new Date() })).toMatchObject({ leads: 1, suspectedSpam: 1 });
      expect(await store.listSpam({ limit: 10, offset: 0 })).toEqual([]);
      expect(await store.personLeads(match)).toEqual([]);
      // The audit trail kept what the office did, but no longer which lead it was.
      const trail = JSON.stringify(await store.recent(10));
      expect(trail).not.toContain('Q-KKKK-KK');
      expect(trail).toContain('Moved a lead since deleted on request from suspected spam to the inbox.');
    });

    it("exports what the inbox shows, oldest first and page after page, with each lead's status, owner and notes", async () => {
      const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 18, minute));
      const ann = await lead(store, { ...quote(), name: 'Ann Export', phone: '(503) 555-0131', postalCode: '97201' }, at(1));
      const ben = await lead(store, { ...contact(), name: 'Ben Export', phone: '(503) 555-0132' }, at(2));
      const cy = await lead(store, { ...quote(), name: 'Cy Export', phone: '(503) 555-0133', preferredDates: ['2026-11-27'] }, at(3));
      const audit = { at: at(9), actor: 'ann@example.com', action: 'added a note', detail: 'A note.' } as const;
      await store.setStatus(ann, 'contacted', 'ann@example.com', at(10), () => ({ ...audit, action: 'set a status' }));
      await store.workLead(ann, { owner: { to: 'ann@example.com', audit: { ...audit, action: 'set the owner' } } });
      await store.addNote(ann, { at: at(11), by: 'ann@example.com', text: 'Called, no answer.' }, audit);
      await store.addNote(ann, { at: at(12), by: 'bo@example.com', text: 'Rang back: Tuesday.' }, audit);
      const exported = async (filter: Parameters<Store['exportInbox']>[0]) => {
        const items = [];
        for await (const item of store.exportInbox(filter)) items.push(item);
        return items;
      };
      const names = async (filter: Parameters<Store['exportInbox']>[0]) => (await exported(filter)).map((i) => i.lead.fields.name);
      expect(await names({})).toEqual(['Ann Export', 'Ben Export', 'Cy Export']);
      const [first] = await exported({ status: 'contacted' });
      expect(first).toMatchObject({ status: 'contacted', statusBy: 'ann@example.com', statusAt: at(10), owner: 'ann@example.com' });
      expect(first!.notes).toEqual([
        { at: at(11), by: 'ann@example.com', text: 'Called, no answer.' },
        { at: at(12), by: 'bo@example.com', text: 'Rang back: Tuesday.' },
      ]);
      // Each of the inbox's filters, as the inbox reads it.
      expect(await names({ owner: { email: 'ann@example.com' } })).toEqual(['Ann Export']);
      expect(await names({ owner: 'nobody' })).toEqual(['Ben Export', 'Cy Export']);
      expect(await names({ form: 'support' })).toEqual(['Ben Export']);
      expect(await names({ search: 'cy exp' })).toEqual(['Cy Export']);
      expect(await names({ search: ben.replace(/-/g, '').toLowerCase() })).toEqual(['Ben Export']);
      expect(await names({ postalCode: '97201' })).toEqual(['Ann Export']);
      expect(await names({ visitBetween: { from: '2026-11-27', to: '2026-11-29' } })).toEqual(['Cy Export']);
      expect(await names({ since: at(2), until: at(3) })).toEqual(['Ben Export']);
      expect(await names({ status: 'done' })).toEqual([]);
      expect(cy).toMatch(/^Q-/);
      // Past a page of 500, every lead once, in order.
      await seedLeads(store, 620, { body: (i) => ({ ...quote(), name: `Many ${i}` }), receivedAt: (i) => new Date(Date.UTC(2026, 10, 25, 0, 0, i)) });
      const many = (await names({ search: 'many' })) as string[];
      expect(many).toHaveLength(620);
      expect(many.slice(0, 2)).toEqual(['Many 0', 'Many 1']);
      expect(many.at(-1)).toBe('Many 619');
      expect(await exported({})).toHaveLength(623);
    });

    it("lists a person's caught submissions beside their leads, and removes only those chosen, saying how many were kept", async () => {
      const at = new Date('2026-11-24T18:00:00Z');
      const shared = '(503) 555-0150';
      await lead(store, { ...quote(), name: 'Pat Partner', email: 'pat@example.com', phone: shared }, at);
      await lead(store, { ...contact(), name: 'Sam Partner', email: 'sam@example.com', phone: shared }, new Date(at.getTime() + 60_000));
      const other = await lead(store, { ...quote(), name: 'Olive Other', email: 'olive@example.com', phone: '(503) 555-0151' }, at);
      const person = { emailNormalised: 'pat@example.com', phoneE164: '+15035550150' };
      await store.keepSpam(caught('0b8a1f4e-5150-4c55-9d7e-2a1b3c4d5e6f', { ...quote(), name: 'Pat Caught' }, new Date(at.getTime() - DAY)), person);
      await store.keepSpam(caught('0b8a1f4e-5151-4c55-9d7e-2a1b3c4d5e6f', { ...quote(), name: 'Pat Later' }, at), person);
      const match = { kind: 'phone' as const, value: '+15035550150' };
      expect((await store.personSpam(match)).map((s) => s.body.name)).toEqual(['Pat Later', 'Pat Caught']);
      expect(await store.personSpam({ kind: 'email', value: 'olive@example.com' })).toEqual([]);
      const [sam, pat] = await store.personLeads(match);
      expect([sam!.fields.name, pat!.fields.name]).toEqual(['Sam Partner', 'Pat Partner']);
      const olive = (await store.inbox({ search: other, limit: 5, offset: 0 }))[0]!.lead;
      // Pat's lead and one caught submission are ticked; Olive's id, slipped in, is not the person's and stays.
      const chosen = { leads: [pat!.id, olive.id], suspectedSpam: ['0b8a1f4e-5150-4c55-9d7e-2a1b3c4d5e6f'] };
      const removed = await deleteOnRequest(store, match, 'office@example.com', at, chosen);
      expect(removed).toMatchObject({ leads: 1, suspectedSpam: 1, kept: { leads: 1, suspectedSpam: 1 } });
      expect((await store.personLeads(match)).map((l) => l.fields.name)).toEqual(['Sam Partner']);
      expect((await store.personSpam(match)).map((s) => s.body.name)).toEqual(['Pat Later']);
      expect((await store.inbox({ search: other, limit: 5, offset: 0 })).map((i) => i.lead.fields.name)).toEqual(['Olive Other']);
      expect(await store.deletionRecords()).toEqual([{ kind: 'phone', deletedAt: at, leads: 1 }]);
      expect((await store.recent(1))[0]).toMatchObject({
        action: 'deleted on request',
        detail:
          'Deleted 1 lead and 1 submission from suspected spam on request, found by phone number. Kept 1 lead and 1 submission from suspected spam, not ticked.',
      });
      // Without a choice, everything of theirs goes, as before.
      expect(await store.deletePerson(match, { kind: 'phone', deletedAt: at })).toMatchObject({ leads: 1, suspectedSpam: 1 });
      expect(await store.personLeads(match)).toEqual([]);
      expect(await store.personSpam(match)).toEqual([]);
    });

    it(`removes suspected spam after ${SPAM_KEEP_DAYS} days, ended sessions, and audit entries with the deletion records`, async () => {
      const now = new Date('2026-11-24T12:00:00Z');
      const body = { ...quote(), email: 'old@example.com' };
      const person = { emailNormalised: 'old@example.com', phoneE164: '+15035550100' };
      await store.keepSpam(caught('0b8a1f4e-3333-4c55-9d7e-2a1b3c4d5e6f', body, new Date(now.getTime() - (SPAM_KEEP_DAYS + 1) * DAY)), person);
      await store.keepSpam(caught('0b8a1f4e-4444-4c55-9d7e-2a1b3c4d5e6f', body, new Date(now.getTime() - (SPAM_KEEP_DAYS - 1) * DAY)), person);
      await store.saveUser('office@example.com', 'scrypt$1$1$1$AA==$AA==', now);
      const signedIn = (at: Date) => ({ at, actor: 'office@example.com', action: 'signed in', detail: '' }) as const;
      const old = new Date(now.getTime() - 2 * SESSION_IDLE_MS);
      await store.startSession('old-session', 'office@example.com', 'scrypt$1$1$1$AA==$AA==', old, signedIn(old));
      await store.startSession('live-session', 'office@example.com', 'scrypt$1$1$1$AA==$AA==', now, signedIn(now));
      await store.record({ at: new Date(now.getTime() - 731 * DAY), actor: 'office@example.com', action: 'exported', detail: '3 leads' });
      await store.record({ at: now, actor: 'office@example.com', action: 'exported', detail: '4 leads' });
      const purged = await purge(store, purgeCutoffs(now, 730));
      expect(purged).toMatchObject({ suspectedSpam: 1, sessions: 1, auditEntries: 1 });
      expect((await store.listSpam({ limit: 10, offset: 0 })).map((s) => s.id)).toEqual(['0b8a1f4e-4444-4c55-9d7e-2a1b3c4d5e6f']);
      expect((await store.recent(10)).filter((e) => e.action === 'exported').map((e) => e.detail)).toEqual(['4 leads']);
      expect(await store.touchSession('live-session', { seenSince: new Date(now.getTime() - SESSION_IDLE_MS), startedSince: new Date(0) }, now)).toEqual(OWNER);
    });
  });
}
