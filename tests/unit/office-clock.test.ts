/**
 * The office's figures follow its clock (issue 49, item 4; decision 0027): when the time zone or the
 * services offered change, every lead is counted again by the new ones, at the service's start-up
 * (`keepOfficeClock`); a first contact recorded without the store (by hand, or by an older build)
 * gets its working minutes then; and a start with the same clock works nothing out again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeLead } from '../../src/leads/intake.ts';
import { chartSeries, chartWeeks, weekStarts } from '../../src/office/overview.ts';
import { promiseChartWeeks } from '../../src/office/promise-chart.ts';
import type { Store } from '../../src/store/index.ts';
import { promise, quote, serviceArea } from '../support/fixtures.ts';
import { STORE_KINDS, type OpenedStore } from '../support/store-kinds.ts';

const [PORTLAND, NEW_YORK] = ['America/Los_Angeles', 'America/New_York'];
type Opened = OpenedStore;
const kinds = STORE_KINDS;

let n = 0;
/** Takes in a quote for `service`, received at `at`, as the API would; its reference. */
async function sent(store: Store, service: string, at: string): Promise<string> {
  const now = new Date(at);
  const body = quote({ service, email: `clock.${++n}@example.com`, consentTimestamp: now.toISOString() });
  const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now };
  const outcome = await takeLead(store, { body, meta, business: { promise: promise(), serviceArea: serviceArea() } });
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.receipt.reference;
}

/** This week's bar as the office is shown it in `zone`, by the services `offered`: [each service, another service, contact messages]. */
async function thisWeek(store: Store, zone: string, offered: string[], now: Date) {
  const weeks = weekStarts(now, zone);
  return chartWeeks(weeks, await store.leadsPerWeek(weeks, offered), chartSeries(offered), zone).at(-1)!.counts;
}

for (const kind of kinds) {
  describe.skipIf(kind.skip)(`the office's figures on the ${kind.name} store follow its clock`, () => {
    let opened: Opened;
    beforeEach(async () => {
      opened = await kind.open();
    });
    afterEach(async () => opened?.cleanup());

    it('counts every lead again by a new time zone, and by new services, and works nothing out again on the same clock', async () => {
      const { store } = opened;
      const portland = { promise: promise(), services: ['Deep clean'] };
      expect(await store.keepOfficeClock(portland)).toBe(0);
      // Sunday 22 November, 11:30 pm in Portland, is Monday 2:30 am in New York: last week in one, this week in the other.
      await sent(store, 'Deep clean', '2026-11-22T23:30:00-08:00');
      await sent(store, 'Standard clean', '2026-11-24T10:00:00-08:00');
      const now = new Date('2026-11-25T12:00:00-08:00');
      expect(await thisWeek(store, PORTLAND, ['Deep clean'], now)).toEqual([0, 1, 0]);
      expect(await store.keepOfficeClock(portland)).toBe(0);

      const newYork = { promise: { ...promise(), timeZone: NEW_YORK }, services: ['Deep clean', 'Standard clean'] };
      expect(await store.keepOfficeClock(newYork)).toBe(kind.name === 'SQLite' ? 2 : 0);
      expect(await thisWeek(store, NEW_YORK, ['Deep clean', 'Standard clean'], now)).toEqual([1, 1, 0, 0]);
      // Today in New York began at its own midnight: both leads were received before it.
      const counts = await store.statusCounts(new Date('2026-11-25T00:00:00-05:00'), now);
      expect([counts.new, counts.since]).toEqual([2, 0]);
      expect((await store.statusCounts(new Date('2026-11-24T00:00:00-05:00'), now)).since).toBe(1);
      expect(await store.keepOfficeClock(newYork)).toBe(0);
    });

    it('measures at start-up a first contact recorded without the store, for the median', async () => {
      const { store, sql } = opened;
      const clock = { promise: promise(), services: ['Deep clean'] };
      await store.keepOfficeClock(clock);
      await sent(store, 'Deep clean', '2026-11-23T10:00:00-08:00');
      // Recorded by hand, as an import or an older build would: no working minutes with it.
      await sql(`UPDATE leads SET status = 'contacted', first_contact_at = '2026-11-23T19:30:00.000Z'`);
      const now = new Date('2026-11-25T12:00:00-08:00');
      const weeks = weekStarts(now, PORTLAND, 1);
      const week = async () => promiseChartWeeks(weeks, await store.promiseCounts(weeks, now), PORTLAND)[0]!;
      expect(await week()).toMatchObject({ inTime: 1, contacted: 1, medianMinutes: undefined });
      expect(await store.keepOfficeClock(clock)).toBe(1);
      expect(await week()).toMatchObject({ inTime: 1, contacted: 1, medianMinutes: 90 });
    });
  });
}
