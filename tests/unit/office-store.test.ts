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
import { sessionUser, signIn, type SignInDeps } from '../../src/office/session.ts';
import { releaseSpam } from '../../src/office/spam.ts';
import type { SuspectedSpam } from '../../src/office/store.ts';
import { createMemoryLimiter } from '../../src/limiter/memory-limiter.ts';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { contact, quote } from '../support/fixtures.ts';
import { createSchema, postgresAvailable } from '../support/services.ts';

const DAY = 86_400_000;

async function lead(store: Store, body: Record<string, unknown>, now: Date) {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const record = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'test', now });
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

const stores: Array<{ name: string; skip: boolean; open(): Promise<{ store: Store; cleanup(): Promise<void> }> }> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'office-store-'));
      const store = openSqliteStore(join(dir, 'leads.sqlite'));
      return { store, cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      const store = await openPostgresStore(schema.url);
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

    it('signs in with the right password only, and a session ends when idle, when signed out, or when the password changes', async () => {
      await store.saveUser('office@example.com', await hashPassword('mop and bucket 2026'), new Date());
      const limits = { account: createMemoryLimiter({ points: 5, windowSeconds: 900 }), client: createMemoryLimiter({ points: 20, windowSeconds: 900 }) };
      const deps: SignInDeps = { accounts: store, sessions: store, audit: store, limits };
      expect((await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2025', client: '198.51.100.1' })).kind).toBe('refused');
      expect((await signIn(deps, { email: 'nobody@example.com', password: 'mop and bucket 2026', client: '198.51.100.1' })).kind).toBe('refused');
      const t0 = new Date('2026-11-24T17:00:00Z');
      const first = await signIn(deps, { email: ' Office@Example.com ', password: 'mop and bucket 2026', client: '198.51.100.1' }, t0);
      if (first.kind !== 'signed_in') throw new Error(first.kind);
      expect(first.email).toBe('office@example.com');
      // Used within the idle period, the session lives on from its last use.
      const later = new Date(t0.getTime() + SESSION_IDLE_MS - 1_000);
      expect(await sessionUser(store, first.token, later)).toBe('office@example.com');
      expect(await sessionUser(store, first.token, new Date(later.getTime() + SESSION_IDLE_MS - 1_000))).toBe('office@example.com');
      // Unused for longer, it has ended.
      expect(await sessionUser(store, first.token, new Date(later.getTime() + 3 * SESSION_IDLE_MS))).toBeUndefined();
      // However busy, a session ends 12 hours after its sign-in.
      const busy = await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.1' }, t0);
      if (busy.kind !== 'signed_in') throw new Error(busy.kind);
      for (let minutes = 50; minutes < 12 * 60; minutes += 50)
        expect(await sessionUser(store, busy.token, new Date(t0.getTime() + minutes * 60_000))).toBe('office@example.com');
      expect(await sessionUser(store, busy.token, new Date(t0.getTime() + SESSION_MAX_MS + 60_000))).toBeUndefined();
      // A new password ends the sessions the old one opened.
      const second = await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.1' }, t0);
      if (second.kind !== 'signed_in') throw new Error(second.kind);
      expect(await store.saveUser('office@example.com', await hashPassword('a new passphrase 2027'), t0)).toBe(false);
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

    it("slows an account's sign-ins after five wrong passwords, even with the right one", async () => {
      await store.saveUser('office@example.com', await hashPassword('mop and bucket 2026'), new Date());
      const limits = { account: createMemoryLimiter({ points: 5, windowSeconds: 900 }), client: createMemoryLimiter({ points: 20, windowSeconds: 900 }) };
      const deps: SignInDeps = { accounts: store, sessions: store, audit: store, limits };
      for (let i = 0; i < 5; i++)
        expect((await signIn(deps, { email: 'office@example.com', password: `guess ${i}`, client: `198.51.100.${i}` })).kind).toBe('refused');
      const outcome = await signIn(deps, { email: 'office@example.com', password: 'mop and bucket 2026', client: '198.51.100.99' });
      expect(outcome).toMatchObject({ kind: 'throttled' });
    });

    it('counts attempts sent all at once before checking any: a burst gets no more tries than the limit', async () => {
      await store.saveUser('office@example.com', await hashPassword('mop and bucket 2026'), new Date());
      const limits = { account: createMemoryLimiter({ points: 5, windowSeconds: 900 }), client: createMemoryLimiter({ points: 20, windowSeconds: 900 }) };
      const deps: SignInDeps = { accounts: store, sessions: store, audit: store, limits };
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

      expect(await store.setStatus(bob, 'contacted', 'office@example.com', t('11'))).toEqual({ from: 'new' });
      expect(await store.setStatus('Q-3333-33', 'done', 'office@example.com', t('11'))).toBeUndefined();
      const [item] = await store.inbox({ status: 'contacted', limit: 50, offset: 0 });
      expect(item).toMatchObject({ status: 'contacted', statusBy: 'office@example.com', statusAt: t('11') });
      expect(await find({ status: 'new' })).toEqual(['100% Clean', 'Ada Lovelace']);
    });

    it('keeps suspected spam aside, releases it as a lead under the reference its sender was shown, and erases it with the person', async () => {
      const at = new Date();
      const body = { ...quote(), name: 'Quick Quentin', email: 'quentin@example.com', phone: '(503) 555-0144' };
      await store.keepSpam(caught('0b8a1f4e-1111-4c55-9d7e-2a1b3c4d5e6f', body, at), { emailNormalised: 'quentin@example.com', phoneE164: '+15035550144' });
      expect((await store.inbox({ limit: 50, offset: 0 })).length).toBe(0);
      expect((await store.listSpam(10)).map((s) => s.body.name)).toEqual(['Quick Quentin']);
      const release = await releaseSpam({ spam: store, intake: store, audit: store }, '0b8a1f4e-1111-4c55-9d7e-2a1b3c4d5e6f', 'office@example.com');
      expect(release).toEqual({ kind: 'released', reference: 'Q-KKKK-KK' });
      expect(await store.listSpam(10)).toEqual([]);
      const [item] = await store.inbox({ limit: 50, offset: 0 });
      expect(item!.lead).toMatchObject({ reference: 'Q-KKKK-KK', receivedAt: at.toISOString() });
      expect(item!.lead.consent.channel).toBe('web-form');
      expect((await store.recent(5))[0]).toMatchObject({ action: 'released from spam', detail: 'Q-KKKK-KK to the inbox' });
      // Gone is said as such.
      expect(await releaseSpam({ spam: store, intake: store, audit: store }, '0b8a1f4e-1111-4c55-9d7e-2a1b3c4d5e6f', 'office@example.com')).toEqual({
        kind: 'gone',
      });

      // A deletion on request takes the person's suspected spam too.
      await store.keepSpam(caught('0b8a1f4e-2222-4c55-9d7e-2a1b3c4d5e6f', body, at), { emailNormalised: 'quentin@example.com', phoneE164: '+15035550144' });
      const match = { kind: 'phone' as const, value: '+15035550144' };
      expect(await store.countPerson(match)).toMatchObject({ leads: 1, suspectedSpam: 1 });
      expect((await store.personLeads(match)).map((l) => l.fields.name)).toEqual(['Quick Quentin']);
      expect(await store.deletePerson(match, { kind: 'phone', deletedAt: new Date() })).toMatchObject({ leads: 1, suspectedSpam: 1 });
      expect(await store.listSpam(10)).toEqual([]);
      expect(await store.personLeads(match)).toEqual([]);
      // The audit trail kept what the office did, but no longer which lead it was.
      const trail = JSON.stringify(await store.recent(10));
      expect(trail).not.toContain('Q-KKKK-KK');
      expect(trail).toContain('a deleted lead');
    });

    it(`removes suspected spam after ${SPAM_KEEP_DAYS} days, ended sessions, and audit entries with the deletion records`, async () => {
      const now = new Date('2026-11-24T12:00:00Z');
      const body = { ...quote(), email: 'old@example.com' };
      const person = { emailNormalised: 'old@example.com', phoneE164: '+15035550100' };
      await store.keepSpam(caught('0b8a1f4e-3333-4c55-9d7e-2a1b3c4d5e6f', body, new Date(now.getTime() - (SPAM_KEEP_DAYS + 1) * DAY)), person);
      await store.keepSpam(caught('0b8a1f4e-4444-4c55-9d7e-2a1b3c4d5e6f', body, new Date(now.getTime() - (SPAM_KEEP_DAYS - 1) * DAY)), person);
      await store.saveUser('office@example.com', 'scrypt$1$1$1$AA==$AA==', now);
      await store.startSession('old-session', 'office@example.com', new Date(now.getTime() - 2 * SESSION_IDLE_MS));
      await store.startSession('live-session', 'office@example.com', now);
      await store.record({ at: new Date(now.getTime() - 731 * DAY), actor: 'office@example.com', action: 'exported', detail: '3 leads' });
      await store.record({ at: now, actor: 'office@example.com', action: 'exported', detail: '4 leads' });
      const purged = await purge(store, purgeCutoffs(now, 730));
      expect(purged).toMatchObject({ suspectedSpam: 1, sessions: 1, auditEntries: 1 });
      expect((await store.listSpam(10)).map((s) => s.id)).toEqual(['0b8a1f4e-4444-4c55-9d7e-2a1b3c4d5e6f']);
      expect((await store.recent(10)).map((e) => e.detail)).toEqual(['4 leads']);
      expect(await store.touchSession('live-session', { seenSince: new Date(now.getTime() - SESSION_IDLE_MS), startedSince: new Date(0) }, now)).toBe(
        'office@example.com',
      );
    });
  });
}
