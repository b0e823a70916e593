/**
 * A deletion request that gives an e-mail address and a phone number together, on SQLite and
 * PostgreSQL alike: what either finds is listed once, newest first, with which found it; only what
 * the office ticked goes, each identifier served with its own deletion record and audit line; what
 * was kept is counted once. And the count of what waits in suspected spam, read up to a bound.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { personOf } from '../../src/leads/retention.ts';
import type { PersonMatch } from '../../src/leads/store.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { deleteTicked, deletionResult, previewDeletion } from '../../src/office/deletion.ts';
import type { SuspectedSpam } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { contact, quote, serviceArea } from '../support/fixtures.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

const MINUTE = 60_000;
const AT = new Date('2026-11-24T18:00:00Z');
const later = (minutes: number) => new Date(AT.getTime() + minutes * MINUTE);

async function lead(store: Store, body: Record<string, unknown>, now: Date): Promise<string> {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const record = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'test', now }, serviceArea());
  const outcome = await store.submit(record, undefined);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return record.id;
}

async function caught(store: Store, id: string, body: { name: string; email: string; phone: string }, receivedAt: Date) {
  const spam: SuspectedSpam = {
    id,
    reference: 'Q-KKKK-KK',
    formType: 'quote',
    receivedAt,
    reason: 'sent faster than a person fills it in',
    body: { ...quote(), ...body },
    meta: { receivedVia: '/quote', channel: 'web-form', clientAddress: '198.51.100.8', userAgent: 'Mozilla/5.0' },
  };
  await store.keepSpam(spam, { emailNormalised: body.email.toLowerCase(), phoneE164: personOf('phone', body.phone)!.value });
}

const stores: Array<{ name: string; skip: boolean; open(): Promise<{ store: Store; cleanup(): Promise<void> }> }> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'office-delete-both-'));
      const store = openSqliteStore(join(dir, 'leads.sqlite'));
      return { store, cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      const store = await openPostgresStore(schema.url, TEST_POSTGRES);
      return { store, cleanup: async () => (await store.close(), await schema.drop()) };
    },
  },
];

const MARIA = { email: 'maria@example.com', phone: '(503) 555-0150' };
const SPAM_ID = (n: number) => `0b8a1f4e-51${String(n).padStart(2, '0')}-4c55-9d7e-2a1b3c4d5e6f`;

for (const kind of stores) {
  describe.skipIf(kind.skip)(`a deletion request by e-mail and phone together on ${kind.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ store, cleanup } = await kind.open()));
    afterEach(() => cleanup());

    it('lists what either finds once, newest first, and removes only what is ticked, with a record and an audit line for each', async () => {
      // Maria: one lead by both, one by her e-mail alone (another phone), one by her phone alone (another e-mail);
      // Luis shares her phone; Olive is nobody's match.
      const both = await lead(store, { ...quote(), name: 'Maria Both', ...MARIA }, AT);
      const byEmail = await lead(store, { ...contact(), name: 'Maria Email', email: MARIA.email, phone: '(503) 555-0151' }, later(1));
      const byPhone = await lead(store, { ...quote(), name: 'Maria Phone', email: 'maria.work@example.com', phone: MARIA.phone }, later(2));
      const luis = await lead(store, { ...contact(), name: 'Luis Shared', email: 'luis@example.com', phone: MARIA.phone }, later(3));
      const olive = await lead(store, { ...quote(), name: 'Olive Other', email: 'olive@example.com', phone: '(503) 555-0152' }, later(4));
      await caught(store, SPAM_ID(1), { name: 'Maria Caught', email: MARIA.email, phone: '(503) 555-0153' }, later(5));
      await caught(store, SPAM_ID(2), { name: 'Maria Caught Too', email: 'm@example.com', phone: MARIA.phone }, later(-60));
      const request: PersonMatch[] = [personOf('email', MARIA.email)!, personOf('phone', MARIA.phone)!];

      const preview = await previewDeletion({ inbox: store, records: store }, request);
      expect(preview.leads.map((l) => l.fields.name)).toEqual(['Luis Shared', 'Maria Phone', 'Maria Email', 'Maria Both']);
      expect(preview.spam.map((s) => s.body.name)).toEqual(['Maria Caught', 'Maria Caught Too']);
      expect(preview.foundBy.get(both)).toEqual(['email', 'phone']);
      expect(preview.foundBy.get(byEmail)).toEqual(['email']);
      expect(preview.foundBy.get(byPhone)).toEqual(['phone']);
      expect(preview.foundBy.get(luis)).toEqual(['phone']);
      expect(preview.foundBy.get(SPAM_ID(2))).toEqual(['phone']);
      expect(preview.foundBy.has(olive)).toBe(false);

      // Everything ticked but Luis's lead and the older caught submission; Olive's id, slipped in, is not the person's and stays.
      const chosen = { leads: [both, byEmail, byPhone, olive], suspectedSpam: [SPAM_ID(1)] };
      const removed = await deleteTicked({ records: store, inbox: store }, request, 'office@example.com', AT, chosen);
      expect(removed).toMatchObject({ leads: 3, suspectedSpam: 1, kept: { leads: 1, suspectedSpam: 1 } });
      expect(deletionResult(removed, request).slice(0, 2)).toEqual([
        'Removed 3 leads and 1 submission from suspected spam.',
        'Kept 1 lead and 1 submission from suspected spam, not ticked.',
      ]);
      const left = await previewDeletion({ inbox: store, records: store }, request);
      expect([...left.leads, ...left.spam].map((x) => ('fields' in x ? x.fields.name : x.body.name))).toEqual(['Luis Shared', 'Maria Caught Too']);
      expect((await store.inbox({ search: 'olive', limit: 5, offset: 0 })).map((i) => i.lead.id)).toEqual([olive]);
      // One request, served by each identifier in turn: the e-mail address first, then what the phone number still found.
      expect(await store.deletionRecords()).toEqual([
        { kind: 'email', deletedAt: AT, leads: 2 },
        { kind: 'phone', deletedAt: AT, leads: 1 },
      ]);
      expect((await store.recent(2)).map((e) => [e.action, e.detail]).sort()).toEqual(
        [
          ['deleted on request', 'Deleted 1 lead on request, found by phone number. Kept 1 lead and 1 submission from suspected spam, not ticked.'],
          ['deleted on request', 'Deleted 2 leads and 1 submission from suspected spam on request, found by e-mail address.'],
        ].sort(),
      );
      expect(JSON.stringify(await store.recent(10))).not.toMatch(/maria|555/i);
    });

    it('says so when neither finds anything', async () => {
      const request = [personOf('email', 'nobody@example.com')!, personOf('phone', '(503) 555-0190')!];
      const preview = await previewDeletion({ inbox: store, records: store }, request);
      expect([preview.leads, preview.spam, preview.removed.officeEmails]).toEqual([[], [], []]);
      expect(deletionResult({ leads: 0, suspectedSpam: 0 }, request)[0]).toBe(
        'Nothing matched this e-mail address or this phone number, so nothing was removed.',
      );
    });
  });

  describe.skipIf(kind.skip)(`what waits in suspected spam on ${kind.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ store, cleanup } = await kind.open()));
    afterEach(() => cleanup());

    it('is counted, up to the bound asked for, and follows a release', async () => {
      expect(await store.spamWaiting(1000)).toBe(0);
      for (let i = 1; i <= 5; i++) await caught(store, SPAM_ID(i), { name: `Caught ${i}`, email: `c${i}@example.com`, phone: '(503) 555-0160' }, later(i));
      expect(await store.spamWaiting(1000)).toBe(5);
      expect(await store.spamWaiting(3)).toBe(3);
      await store.deletePerson(personOf('email', 'c1@example.com')!, { kind: 'email', deletedAt: AT });
      expect(await store.spamWaiting(1000)).toBe(4);
    });
  });
}
