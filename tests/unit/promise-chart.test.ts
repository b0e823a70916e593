/**
 * Is the promise kept? (issue 46, item 2): the weekly promise figures. Both stores give the leads of
 * each week that were first contacted, or still wait past their answer-by, each in the week it was
 * received; the domain counts them in time or late and takes the median time to a first contact in
 * working hours, the office's opening hours on its working days less closed days.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { answerBy, workingMinutes } from '../../src/leads/next-step.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { weekStarts } from '../../src/office/overview.ts';
import { medianOfCounts } from '../../src/office/figures-clock.ts';
import { firstContactsMeasured } from '../../src/office/working-clock.ts';
import { medianMinutes, promiseChartWeeks, workingHoursWords } from '../../src/office/promise-chart.ts';
import { changeStatus } from '../../src/office/status.ts';
import type { PromiseCount } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';
import { promise, quote, serviceArea } from '../support/fixtures.ts';
import { STORE_KINDS, type OpenedStore } from '../support/store-kinds.ts';

const ZONE = 'America/Los_Angeles';
const at = (local: string) => new Date(`${local}-08:00`);

describe('the median time to a first contact, in working hours', () => {
  it('is the middle value, or the mean of the two middle ones; none of no value', () => {
    expect(medianMinutes([])).toBeUndefined();
    expect(medianMinutes([42])).toBe(42);
    expect(medianMinutes([675, 90, 120])).toBe(120);
    expect(medianMinutes([30, 60])).toBe(45);
    expect(medianMinutes([720, 0, 120, 60])).toBe(90);
    expect(medianMinutes([1, 2])).toBe(1.5);
  });

  it("counts the office's working hours alone, as the contract's example says: Friday 5 pm to Monday 9 am is two hours", () => {
    const clock = (from: Date, to: Date, p = promise()) => workingMinutes(from, to, p);
    expect(clock(at('2026-11-20T17:00:00'), at('2026-11-23T09:00:00'))).toBe(120);
    // Tuesday 5:30 pm to Thursday 8:45 am: half an hour, all of Wednesday (10 hours) and three quarters of an hour.
    expect(clock(at('2026-11-17T17:30:00'), at('2026-11-19T08:45:00'))).toBe(675);
    // Saturday's phone hours are not a working day of the promise; a closed day is not counted either.
    expect(clock(at('2026-11-21T09:00:00'), at('2026-11-21T12:00:00'))).toBe(0);
    const thanksgiving = { ...promise(), closed: [{ date: '2026-11-26' }] };
    expect(clock(at('2026-11-25T17:00:00'), at('2026-11-27T09:00:00'), thanksgiving)).toBe(120);
    expect(clock(at('2026-11-25T17:00:00'), at('2026-11-27T09:00:00'))).toBe(720);
  });

  it('agrees with workingMinutes, minute for minute, when many are measured at once, across clock changes and closed days', () => {
    const closed = { ...promise(), closed: [{ date: '2026-03-09' }, { date: '2026-11-02' }, { date: '2026-11-26' }] };
    const [from, to] = [new Date('2026-02-20T00:00:00Z'), new Date('2026-12-10T00:00:00Z')];
    for (const p of [promise(), closed]) {
      let seed = 7;
      const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
      const leads = Array.from({ length: 400 }, () => {
        const a = new Date(from.getTime() + next() * (to.getTime() - from.getTime() - 30 * 86_400_000));
        return { receivedAt: a, firstContactAt: next() < 0.1 ? null : new Date(a.getTime() + next() * 9 * 86_400_000) };
      });
      leads.push(
        { receivedAt: new Date('2026-03-06T17:00:00-08:00'), firstContactAt: new Date('2026-03-09T10:00:00-07:00') },
        { receivedAt: new Date('2026-10-30T17:00:00-07:00'), firstContactAt: new Date('2026-11-03T09:00:00-08:00') },
      );
      expect(firstContactsMeasured(leads, p)).toEqual(leads.map((l) => (l.firstContactAt ? workingMinutes(l.receivedAt, l.firstContactAt, p) : null)));
    }
    expect(firstContactsMeasured([{ receivedAt: from, firstContactAt: to }], undefined)).toEqual([null]);
  });

  it('is the same from counted values as from the values one by one', () => {
    expect(medianOfCounts([])).toBeUndefined();
    expect(medianOfCounts([{ minutes: 90, count: 0 }])).toBeUndefined();
    expect(
      medianOfCounts([
        { minutes: 120, count: 2 },
        { minutes: 30, count: 1 },
      ]),
    ).toBe(120);
    expect(
      medianOfCounts([
        { minutes: 60, count: 2 },
        { minutes: 30, count: 2 },
      ]),
    ).toBe(45);
    expect(
      medianOfCounts([
        { minutes: 10, count: 3 },
        { minutes: 20, count: 1 },
        { minutes: 40, count: 4 },
      ]),
    ).toBe(30);
  });

  it('says a time in working hours as the office reads it', () => {
    expect(workingHoursWords(0)).toBe('0 min');
    expect(workingHoursWords(45)).toBe('45 min');
    expect(workingHoursWords(120)).toBe('2 h');
    expect(workingHoursWords(90)).toBe('1 h 30 min');
    expect(workingHoursWords(674.5)).toBe('11 h 15 min');
  });
});

type Opened = OpenedStore;
const stores = STORE_KINDS;

let n = 0;
/** Stores a lead received at `local` (the office's time), with its answer-by as the intake works it out; its reference. */
async function received(store: Store, local: string): Promise<string> {
  const v = validateLead(quote({ email: `chart.${++n}@example.com`, name: `Jane Chart ${n}` }));
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const now = at(local);
  const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now };
  const outcome = await store.submit({ ...toLeadRecord(v.lead, meta, serviceArea()), answerBy: answerBy(now, promise()).toISOString() }, undefined);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.receipt.reference;
}

for (const kind of stores) {
  describe.skipIf(kind.skip)(`the weekly promise figures of the ${kind.name} store`, () => {
    let opened: Opened;
    beforeEach(async () => {
      opened = await kind.open();
      await opened.store.keepOfficeClock({ promise: promise(), services: ['Deep clean'] });
    });
    afterEach(async () => opened?.cleanup());

    it('gives each week’s first contacts and late waiting leads, in the week they were received, and the domain counts them', async () => {
      const { store, sql } = opened;
      const contact = (reference: string, status: 'contacted' | 'done' | 'new', local: string) =>
        changeStatus(store, { reference, status }, 'office@example.com', at(local));
      // Wednesday 25 November at noon: two weeks, from Monday 16 and Monday 23 November.
      const now = at('2026-11-25T12:00:00');
      const weeks = weekStarts(now, ZONE, 2);
      expect(weeks.map((w) => w.toISOString())).toEqual(['2026-11-16T08:00:00.000Z', '2026-11-23T08:00:00.000Z', '2026-11-30T08:00:00.000Z']);

      await contact(await received(store, '2026-11-15T23:59:00'), 'contacted', '2026-11-16T09:00:00'); // the week before: not counted
      await contact(await received(store, '2026-11-16T10:00:00'), 'contacted', '2026-11-16T11:30:00'); // in time, 90 working minutes
      await contact(await received(store, '2026-11-17T17:30:00'), 'done', '2026-11-19T08:45:00'); // late (by Wed 6 pm), 675
      await contact(await received(store, '2026-11-20T17:00:00'), 'contacted', '2026-11-23T09:00:00'); // in time, 120
      await contact(await received(store, '2026-11-23T00:00:00'), 'contacted', '2026-11-23T08:30:00'); // the second week's first instant: 30
      await received(store, '2026-11-23T09:00:00'); // still waiting, past Tuesday 6 pm: late
      const back = await received(store, '2026-11-23T12:00:00');
      await contact(back, 'contacted', '2026-11-23T13:00:00'); // in time, 60, then back to new: counted by its first contact
      await contact(back, 'new', '2026-11-23T14:00:00');
      await received(store, '2026-11-24T19:00:00'); // still waiting, due Wednesday 6 pm: neither
      await contact(await received(store, '2026-11-23T15:00:00'), 'done', '2026-11-23T16:00:00');
      // Moved on before first contacts were recorded: no first contact, not waiting, neither.
      await sql(`UPDATE leads SET first_contact_at = NULL, first_contact_by = NULL WHERE received_at >= '2026-11-23T22:00:00Z' AND status = 'done'`);

      // Counted per day as they changed: each week's first contacts by outcome and working minutes, and the waiting past their answer-by.
      const counts = await store.promiseCounts(weeks, now);
      const byWeek = (c: PromiseCount) => `${c.week} ${c.outcome} ${c.minutes ?? ''} ×${c.count}`;
      expect(counts.map(byWeek).sort()).toEqual([
        '0 in time 120 ×1',
        '0 in time 90 ×1',
        '0 late 675 ×1',
        '1 in time 30 ×1',
        '1 in time 60 ×1',
        '1 waiting  ×1',
      ]);

      const chart = promiseChartWeeks(weeks, counts, ZONE);
      expect(
        chart.map(({ monday, label, inTime, answeredLate, waitingLate, late, contacted, medianMinutes }) => ({
          monday,
          label,
          inTime,
          answeredLate,
          waitingLate,
          late,
          contacted,
          medianMinutes,
        })),
      ).toEqual([
        { monday: '2026-11-16', label: 'Nov 16', inTime: 2, answeredLate: 1, waitingLate: 0, late: 1, contacted: 3, medianMinutes: 120 },
        { monday: '2026-11-23', label: 'Nov 23', inTime: 2, answeredLate: 0, waitingLate: 1, late: 1, contacted: 2, medianMinutes: 45 },
      ]);
      // A day later the Tuesday evening lead is past its answer-by too.
      const waiting = (await store.promiseCounts(weeks, at('2026-11-26T12:00:00'))).filter((c) => c.outcome === 'waiting');
      expect(waiting.reduce((n, c) => n + c.count, 0)).toBe(2);
    });

    it('gives nothing for weeks without leads, and no weeks without boundaries', async () => {
      const { store } = opened;
      await received(store, '2026-11-16T10:00:00');
      const now = at('2026-12-20T12:00:00');
      expect(await store.promiseCounts(weekStarts(now, ZONE, 2), now)).toEqual([]);
      expect(await store.promiseCounts([new Date(0)], now)).toEqual([]);
      expect(promiseChartWeeks(weekStarts(now, ZONE, 2), [], ZONE).map((w) => [w.inTime, w.late, w.medianMinutes])).toEqual([
        [0, 0, undefined],
        [0, 0, undefined],
      ]);
    });
  });
}
