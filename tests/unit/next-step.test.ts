/**
 * What happens next, as the business promises it: one working day, Monday to Friday, the phone
 * answered on weekdays from 8 to 6 and on Saturdays from 9 to 1, in Los Angeles. The sentence
 * names the promise's last day, and whether the office is open now or when it opens next.
 */
import { describe, expect, it } from 'vitest';
import { whatHappensNext } from '../../src/leads/next-step.ts';
import { hoursLine, readDays, readHours, readTime } from '../../src/site/opening-hours.ts';
import { promise } from '../support/fixtures.ts';

/** A moment given as Los Angeles local time in November 2026 (UTC-8). */
const la = (isoLocal: string) => new Date(`${isoLocal}-08:00`);

describe('what happens next', () => {
  it('names Monday for a request sent on a Friday evening, and when the phone is next answered', () => {
    expect(whatHappensNext(la('2026-11-27T19:30:00'), promise())).toBe(
      'Example Cleaning Co. answers every request within one working day: expect to hear from the office by 6 pm on ' +
        'Monday, November 30 at the latest (its phone is next answered on Saturday, November 28, from 9 am).',
    );
  });

  it('names the next working day for a request sent during opening hours, and says the office is open', () => {
    expect(whatHappensNext(la('2026-11-24T10:00:00'), promise())).toBe(
      'Example Cleaning Co. answers every request within one working day: expect to hear from the office by 6 pm on ' +
        'Wednesday, November 25 at the latest (the office is open now, until 6 pm).',
    );
  });

  it('counts working days only: a Saturday request names Monday, a request before opening says it opens today', () => {
    expect(whatHappensNext(la('2026-11-28T11:00:00'), promise())).toMatch(
      /by 6 pm on Monday, November 30 at the latest \(the office is open now, until 1 pm\)/,
    );
    expect(whatHappensNext(la('2026-11-25T06:45:00'), promise())).toMatch(/by 6 pm on Thursday, November 26 .*\(its phone is next answered today, from 8 am\)/);
    const twoDays = { ...promise(), workingDays: 2 };
    expect(whatHappensNext(la('2026-11-27T19:30:00'), twoDays)).toMatch(/within 2 working days: .* by 6 pm on Tuesday, December 1/);
  });

  it('says so when the home is outside the area the company serves, and the office may still call', () => {
    expect(whatHappensNext(la('2026-11-24T10:00:00'), promise(), { outsideArea: true })).toMatch(
      /; the home is outside the area it usually serves, so the office will say whether it can come\.$/,
    );
  });
});

describe('opening hours as the editors write them', () => {
  it('reads days, ranges and times, and refuses what it cannot read', () => {
    expect(readDays('Monday to Friday')).toEqual([1, 2, 3, 4, 5]);
    expect(readDays('Friday to Monday')).toEqual([5, 6, 0, 1]);
    expect(readDays('Monday, Wednesday and Friday')).toEqual([1, 3, 5]);
    expect(readDays('Mondays')).toBeUndefined();
    expect([readTime('8 am'), readTime('12:30 pm'), readTime('noon'), readTime('12 am')]).toEqual([480, 750, 720, 0]);
    expect([readTime('18:00'), readTime('13 pm'), readTime('8')]).toEqual([undefined, undefined, undefined]);
    expect(readHours({ days: 'Saturday', opens: '1 pm', closes: '9 am' })).toBeUndefined();
    expect(hoursLine({ days: 'Monday to Friday', opens: '8 am', closes: '6 pm' })).toBe('Monday to Friday, 8 am to 6 pm');
  });
});
