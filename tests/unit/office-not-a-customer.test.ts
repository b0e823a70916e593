/**
 * On SQLite and PostgreSQL alike: a caught submission marked "not a customer" leaves the count of
 * what waits in suspected spam and is listed apart, with who marked it and when; "Put back" counts
 * it again; each mark and each undo writes one audit line (none for a mark it already has). A
 * deletion on request still finds a marked one, and the purge removes it in its time as any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purge, purgeCutoffs, SPAM_KEEP_DAYS } from '../../src/leads/retention.ts';
import { heldChangeWords } from '../../src/office/held-change.ts';
import { markNotACustomer } from '../../src/office/spam.ts';
import type { SuspectedSpam } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';
import { quote } from '../support/fixtures.ts';
import { STORE_KINDS } from '../support/store-kinds.ts';

const DAY = 86_400_000;
const BOSS = 'boss@example.com';
const HELPER = 'helper@example.com';
const AT = new Date('2026-11-24T17:00:00Z');

/** A caught submission of `name` (its e-mail `<email>@example.com`), received `daysAgo` before `AT`. */
function caught(id: string, reference: string, name: string, email: string, daysAgo: number): [SuspectedSpam, { emailNormalised: string; phoneE164: string }] {
  return [
    {
      id,
      reference,
      formType: 'quote',
      receivedAt: new Date(AT.getTime() - daysAgo * DAY),
      reason: 'sent faster than a person fills it in',
      body: { ...quote(), name, email: `${email}@example.com` },
      meta: { receivedVia: '/quote', channel: 'web-form', clientAddress: '198.51.100.8', userAgent: 'Mozilla/5.0' },
    },
    { emailNormalised: `${email}@example.com`, phoneE164: '+15035550100' },
  ];
}

describe('a change to suspected spam sent after the session ended', () => {
  it('is told in words for what it does: a move, a mark "not a customer", a put back', () => {
    const held = (action: string) =>
      heldChangeWords({
        path: '/office/spam',
        fields: [
          ['id', 'x'],
          ['do', action],
        ],
      });
    expect(held('release')).toBe('Move a submission that was caught as spam into the inbox.');
    expect(held('not-a-customer')).toBe('Mark a submission that was caught as spam “Not a customer”.');
    expect(held('put-back')).toBe('Put a submission marked “Not a customer” back among the suspected spam that waits for review.');
  });
});

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`"not a customer" on ${kind.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeAll(async () => ({ store, cleanup } = await kind.open()));
    afterAll(() => cleanup());

    /** The audit trail's lines that name `reference`, oldest first, as `actor: action: detail`. */
    const lines = async (reference: string) =>
      (await store.recent(1000))
        .reverse()
        .filter((e) => e.detail.includes(reference))
        .map((e) => `${e.actor}: ${e.action}: ${e.detail}`);
    const ids = (list: SuspectedSpam[]) => list.map((s) => s.id);

    it('takes a marked one out of the waiting count into a list of its own, and "Put back" counts it again, one audit line each', async () => {
      const junk = '0b8a1f4e-0001-4c55-9d7e-2a1b3c4d5e6f';
      const other = '0b8a1f4e-0002-4c55-9d7e-2a1b3c4d5e6f';
      await store.keepSpam(...caught(junk, 'Q-NAC1-AA', 'Junk Jolene', 'jolene', 2));
      await store.keepSpam(...caught(other, 'Q-NAC2-BB', 'Real Rhonda', 'rhonda', 1));
      expect(await store.spamWaiting(1000)).toBe(2);

      expect(await markNotACustomer(store, junk, true, BOSS, AT)).toEqual({ kind: 'marked', reference: 'Q-NAC1-AA' });
      expect(await store.spamWaiting(1000)).toBe(1);
      expect(await store.spamWaiting(1)).toBe(1);
      expect(ids(await store.listSpam({ notACustomer: true, limit: 10, offset: 0 }))).toEqual([junk]);
      expect(ids(await store.listSpam({ notACustomer: false, limit: 10, offset: 0 }))).toEqual([other]);
      // Listed all together (the search's list) newest first, the marked one with who marked it and when.
      const all = await store.listSpam({ limit: 10, offset: 0 });
      expect(ids(all)).toEqual([other, junk]);
      expect(all[1]!.notACustomer).toEqual({ by: BOSS, at: AT });
      expect(all[0]!.notACustomer).toBeUndefined();
      expect((await store.findSpam(junk))!.notACustomer).toEqual({ by: BOSS, at: AT });
      // A search finds it, marked or not, and only it.
      expect(ids(await store.listSpam({ search: 'jolene', limit: 10, offset: 0 }))).toEqual([junk]);
      expect(ids(await store.listSpam({ search: 'jolene', notACustomer: false, limit: 10, offset: 0 }))).toEqual([]);

      // Marked again (a second tab): nothing changes, no line.
      const later = new Date(AT.getTime() + 60_000);
      expect(await markNotACustomer(store, junk, true, HELPER, later)).toEqual({ kind: 'already', reference: 'Q-NAC1-AA' });
      expect((await store.findSpam(junk))!.notACustomer).toEqual({ by: BOSS, at: AT });

      expect(await markNotACustomer(store, junk, false, HELPER, later)).toEqual({ kind: 'put back', reference: 'Q-NAC1-AA' });
      expect(await markNotACustomer(store, junk, false, HELPER, later)).toEqual({ kind: 'already', reference: 'Q-NAC1-AA' });
      expect(await store.spamWaiting(1000)).toBe(2);
      expect(await store.listSpam({ notACustomer: true, limit: 10, offset: 0 })).toEqual([]);
      expect((await store.findSpam(junk))!.notACustomer).toBeUndefined();

      expect(await lines('Q-NAC1-AA')).toEqual([
        `${BOSS}: marked not a customer: Marked Q-NAC1-AA in suspected spam as not a customer.`,
        `${HELPER}: put back in spam: Put Q-NAC1-AA back among the suspected spam that waits for review.`,
      ]);
      expect((await store.recent(2)).map((e) => e.at)).toEqual([later, AT]);
      expect(await lines('Q-NAC2-BB')).toEqual([]);
    });

    it('says so of one no longer kept, and writes nothing', async () => {
      const before = (await store.recent(1000)).length;
      expect(await markNotACustomer(store, '0b8a1f4e-0404-4c55-9d7e-2a1b3c4d5e6f', true, BOSS, AT)).toEqual({ kind: 'gone' });
      expect(await markNotACustomer(store, '0b8a1f4e-0404-4c55-9d7e-2a1b3c4d5e6f', false, BOSS, AT)).toEqual({ kind: 'gone' });
      expect((await store.recent(1000)).length).toBe(before);
    });

    it('keeps a marked one where a deletion on request finds it, and the purge removes it in its time', async () => {
      const old = '0b8a1f4e-0003-4c55-9d7e-2a1b3c4d5e6f';
      const young = '0b8a1f4e-0004-4c55-9d7e-2a1b3c4d5e6f';
      await store.keepSpam(...caught(old, 'Q-NAC3-CC', 'Old Olga', 'olga', SPAM_KEEP_DAYS - 1));
      await store.keepSpam(...caught(young, 'Q-NAC4-DD', 'Young Yvette', 'yvette', 1));
      expect((await markNotACustomer(store, old, true, BOSS, AT)).kind).toBe('marked');
      expect((await markNotACustomer(store, young, true, BOSS, AT)).kind).toBe('marked');
      // A deletion on request lists it beside the person's leads (and would remove it with them).
      const found = await store.personSpam({ kind: 'email', value: 'olga@example.com' });
      expect(ids(found)).toEqual([old]);
      expect(found[0]!.notACustomer).toEqual({ by: BOSS, at: AT });
      expect((await store.countPerson({ kind: 'email', value: 'olga@example.com' })).suspectedSpam).toBe(1);

      // Two days on, the older is past its time: removed, marked or not; the younger stays, marked.
      const purged = await purge(store, purgeCutoffs(new Date(AT.getTime() + 2 * DAY), 730));
      expect(purged.suspectedSpam).toBe(1);
      expect(await store.findSpam(old)).toBeUndefined();
      expect(await store.personSpam({ kind: 'email', value: 'olga@example.com' })).toEqual([]);
      expect(ids(await store.listSpam({ notACustomer: true, limit: 10, offset: 0 }))).toEqual([young]);
    });
  });
}
