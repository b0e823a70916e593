/**
 * On SQLite and PostgreSQL alike: the waiting leads counted by their answer-by in the inbox's groups
 * (late, due today, due on the next working day, later: `waitingCounts`), and each group listed
 * alone (`due`), the most urgent first; a lead moved on from New leaves its group's count, and one
 * without an answer-by waits "later". The clock is handed in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitingGroups, WAITING_GROUPS } from '../../src/office/promise-words.ts';
import type { Store } from '../../src/store/index.ts';
import { promise, quote } from '../support/fixtures.ts';
import { seedLeads } from '../support/seed.ts';
import { STORE_KINDS } from '../support/store-kinds.ts';

const HOUR = 3_600_000;
/** A Friday morning in Portland: today ends at midnight, the next working day is Monday. */
const NOW = new Date('2026-11-27T10:00:00-08:00');
const customers = [
  { name: 'Lee Late', answerBy: new Date(NOW.getTime() - 26 * HOUR) },
  { name: 'Lou Late', answerBy: new Date(NOW.getTime() - HOUR) },
  { name: 'Tess Today', answerBy: new Date('2026-11-27T18:00:00-08:00') },
  { name: 'Mo Monday', answerBy: new Date('2026-11-30T12:00:00-08:00') },
  { name: 'Tom Tuesday', answerBy: new Date('2026-12-01T18:00:00-08:00') },
  { name: 'Connie Contacted', answerBy: new Date(NOW.getTime() - 2 * HOUR) },
];

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`the waiting leads' groups on ${kind.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    const { bounds, groups } = waitingGroups(NOW, promise());
    beforeAll(async () => {
      ({ store, cleanup } = await kind.open());
      const refs = await seedLeads(store, customers.length, {
        body: (i) => quote({ name: customers[i]!.name, email: `group.${i}@example.com` }),
        receivedAt: () => new Date(NOW.getTime() - 30 * HOUR),
        answerBy: (i) => customers[i]!.answerBy,
      });
      await store.setStatus(refs[5]!, 'contacted', 'ann@example.com', NOW, () => ({
        at: NOW,
        actor: 'ann@example.com',
        action: 'set a status',
        detail: `Changed ${refs[5]} from New to Contacted.`,
      }));
    });
    afterAll(async () => cleanup?.());

    it('counts each group by its answer-by, the contacted lead in none', async () => {
      expect(await store.waitingCounts(bounds)).toEqual([2, 1, 1, 1]);
    });

    it('lists each group alone, the most urgent first', async () => {
      const listed = async (due: { from?: Date; before?: Date }) =>
        (await store.inbox({ urgent: true, due, limit: 10, offset: 0 })).map((i) => i.lead.fields.name);
      expect(await listed(groups.late.due)).toEqual(['Lee Late', 'Lou Late']);
      expect(await listed(groups.today.due)).toEqual(['Tess Today']);
      expect(await listed(groups.next.due)).toEqual(['Mo Monday']);
      expect(await listed(groups.later.due)).toEqual(['Tom Tuesday']);
      expect(await store.inboxCount({ urgent: true, due: groups.late.due })).toBe(2);
      expect(WAITING_GROUPS).toEqual(['late', 'today', 'next', 'later']);
    });
  });
}
