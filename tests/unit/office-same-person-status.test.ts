/**
 * On SQLite and PostgreSQL alike: the same person's other leads (`samePerson`) come with their
 * status and who has them, read in the one query that finds them; a caught submission has neither.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { takeLead, workLead } from '../../src/office/notes.ts';
import type { SuspectedSpam } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';
import { contact, quote, serviceArea } from '../support/fixtures.ts';
import { STORE_KINDS } from '../support/store-kinds.ts';

const HASH = 'scrypt$1$1$1$AA==$AA==';
const BOSS = 'boss@example.com';
const HELPER = 'helper@example.com';
const day = (n: number) => new Date(Date.UTC(2026, 10, n, 17));

/** Stores `body` as the API does, received `now`; its reference. */
async function stored(store: Store, body: Record<string, unknown>, now: Date): Promise<string> {
  const checked = validateLead(body);
  if (!checked.ok) return expect.unreachable(JSON.stringify(checked.errors));
  const via = { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'test', now } as const;
  const outcome = await store.submit(toLeadRecord(checked.lead, via, serviceArea()), undefined);
  return outcome.kind === 'created' ? outcome.receipt.reference : expect.unreachable(outcome.kind);
}

/** A submission a spam trap caught, kept with the phone number it gave. */
const META = { receivedVia: '/quote', channel: 'web-form', clientAddress: '198.51.100.8', userAgent: 'Mozilla/5.0' } as const;
const caught = (reference: string, receivedAt: Date): SuspectedSpam => ({
  id: `spam-${reference}`,
  reference,
  formType: 'quote',
  receivedAt,
  reason: 'hidden field filled in',
  body: { name: 'Sam Same' },
  meta: META,
});

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`the same person's leads on ${kind.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await kind.open());
      await store.saveUser(BOSS, HASH, day(1), undefined, 'owner');
      await store.saveUser(HELPER, HASH, day(1), undefined, 'staff');
    });
    afterAll(() => cleanup());

    it('says each lead’s status and who has it, and neither for a caught submission', async () => {
      const sam = { name: 'Sam Same', email: 'sam.same@example.com', phone: '(503) 555-0131' };
      const waiting = await stored(store, quote(sam), day(2));
      const contacted = await stored(store, contact({ ...sam, phone: '(503) 555-0132' }), day(3));
      const done = await stored(store, quote({ ...sam, email: 'sam.other@example.com' }), day(4));
      await store.keepSpam(caught('Q-SSSS-SS', day(5)), { emailNormalised: '', phoneE164: '+15035550131' });
      // One lead taken and contacted by the helper, one done and given back to nobody, one left as it came.
      expect(await workLead(store, { reference: contacted, status: 'contacted', owner: HELPER, note: '' }, BOSS, day(6))).toMatchObject({ kind: 'worked' });
      expect(await workLead(store, { reference: done, status: 'done', owner: BOSS, note: '' }, BOSS, day(6))).toMatchObject({ kind: 'worked' });
      expect(await takeLead(store, done, false, BOSS, { now: day(6) })).toEqual({ kind: 'done' });

      const found = await store.samePerson([{ emailNormalised: 'sam.same@example.com', phoneE164: '+15035550131' }]);
      const by = (reference: string) => found.find((m) => m.reference === reference);
      expect(found.map((m) => m.reference)).toEqual(['Q-SSSS-SS', done, contacted, waiting]);
      expect(by(waiting)).toMatchObject({ kind: 'lead', status: 'new' });
      expect(by(waiting)!.owner).toBeUndefined();
      expect(by(contacted)).toMatchObject({ kind: 'lead', status: 'contacted', owner: HELPER });
      expect(by(done)).toMatchObject({ kind: 'lead', status: 'done' });
      expect(by(done)!.owner).toBeUndefined();
      expect(by('Q-SSSS-SS')!.kind).toBe('spam');
      expect(by('Q-SSSS-SS')!.status).toBeUndefined();
      expect(by('Q-SSSS-SS')!.owner).toBeUndefined();

      // A change is read at once: the waiting lead taken.
      expect(await takeLead(store, waiting, true, BOSS, { now: day(7) })).toEqual({ kind: 'done' });
      const again = await store.samePerson([{ emailNormalised: 'sam.same@example.com', phoneE164: '' }]);
      expect(again.find((m) => m.reference === waiting)).toMatchObject({ status: 'new', owner: BOSS });
    });
  });
}
