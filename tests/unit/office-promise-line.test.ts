/**
 * The promise in reach (issue 55, item 7): last week's promise in one line, from the promise
 * chart's week (`promiseChartWeeks`): the share answered in time and the median time to a first
 * contact in working hours, in plain words, and sensible ones for a week with none to answer; every
 * bar of a week chart named under its axis; and an address in the audit trail wrapped only at a dot
 * or an at sign.
 */
import { describe, expect, it } from 'vitest';
import { addressParts } from '../../src/office/address-breaks.ts';
import { weekAxisLabels } from '../../src/office/bar-chart.ts';
import { inTimeShare, promiseChartWeeks, promiseLineWords, workingTimeWords, type PromiseWeek } from '../../src/office/promise-chart.ts';
import { weekStarts } from '../../src/office/overview.ts';
import type { PromiseCount } from '../../src/office/store.ts';

const ZONE = 'America/Los_Angeles';

/** Last week as the line reads it, from the store's counts for its one week. */
function lastWeek(counts: PromiseCount[]): PromiseWeek {
  const weeks = weekStarts(new Date('2026-12-02T17:30:00Z'), ZONE, 2).slice(0, 2);
  return promiseChartWeeks(weeks, counts, ZONE)[0]!;
}

describe('last week’s promise in one line', () => {
  it('says the share answered in time and the median time to a first contact, in working hours', () => {
    const week = lastWeek([
      { week: 0, outcome: 'in time', minutes: 60, count: 20 },
      { week: 0, outcome: 'in time', minutes: 90, count: 21 },
      { week: 0, outcome: 'late', minutes: 800, count: 4 },
    ]);
    expect(promiseLineWords(week)).toBe('Last week 41 of 45 answered in time (91%); half were first contacted within 1.5 working hours.');
    expect(promiseLineWords(lastWeek([{ week: 0, outcome: 'in time', minutes: 30, count: 1 }]))).toBe(
      'Last week 1 of 1 answered in time (100%); the one contacted was reached within 30 working minutes.',
    );
  });

  it('counts a customer nobody has called back, past the answer-by, as late, and says how many still wait', () => {
    const week = lastWeek([
      { week: 0, outcome: 'in time', minutes: 120, count: 3 },
      { week: 0, outcome: 'late', minutes: 700, count: 1 },
      { week: 0, outcome: 'waiting', count: 2 },
    ]);
    expect(promiseLineWords(week)).toBe(
      'Last week 3 of 6 answered in time (50%), 2 still waiting; half of the 4 contacted were reached within 2 working hours.',
    );
    expect(promiseLineWords(lastWeek([{ week: 0, outcome: 'waiting', count: 3 }]))).toBe(
      'Last week 0 of 3 answered in time (0%); none of them has been contacted yet.',
    );
  });

  it('has sensible words for a week with no lead to answer, or whose first contacts could not be measured', () => {
    expect(promiseLineWords(lastWeek([]))).toBe('No lead from last week has had to be answered yet.');
    // Another week's counts are not last week's.
    expect(promiseLineWords(lastWeek([{ week: 1, outcome: 'in time', minutes: 30, count: 5 }]))).toBe('No lead from last week has had to be answered yet.');
    expect(promiseLineWords(lastWeek([{ week: 0, outcome: 'in time', count: 2 }]))).toBe('Last week 2 of 2 answered in time (100%).');
  });

  it('never rounds a week with a late lead up to 100%, nor one with a lead in time down to 0%', () => {
    expect(inTimeShare({ inTime: 199, late: 1 })).toBe('99%');
    expect(inTimeShare({ inTime: 1, late: 199 })).toBe('1%');
    expect(inTimeShare({ inTime: 41, late: 4 })).toBe('91%');
    expect(inTimeShare({ inTime: 0, late: 0 })).toBe('–');
    expect(inTimeShare({ inTime: 0, late: 3 })).toBe('0%');
    expect(inTimeShare({ inTime: 3, late: 0 })).toBe('100%');
  });

  it('says working time as a person does: minutes under the hour, hours to the tenth under ten, whole hours over', () => {
    expect([0, 1, 2, 45, 59.4, 60, 90, 105, 120, 599, 600, 675, 1260].map(workingTimeWords)).toEqual([
      'a working minute',
      'a working minute',
      '2 working minutes',
      '45 working minutes',
      '59 working minutes',
      '1 working hour',
      '1.5 working hours',
      '1.8 working hours',
      '2 working hours',
      '10 working hours',
      '10 working hours',
      '11 working hours',
      '21 working hours',
    ]);
  });
});

describe('every bar of a week chart named', () => {
  it('names each bar by its Monday’s day, and the month under the first bar and each that starts a month', () => {
    expect(weekAxisLabels(['2026-11-16', '2026-11-23', '2026-11-30', '2026-12-07', '2026-12-28', '2027-01-04'])).toEqual([
      { day: '16', month: 'Nov' },
      { day: '23', month: undefined },
      { day: '30', month: undefined },
      { day: '7', month: 'Dec' },
      { day: '28', month: undefined },
      { day: '4', month: 'Jan' },
    ]);
    expect(weekAxisLabels([])).toEqual([]);
  });
});

describe('an address in the audit trail', () => {
  it('may wrap before a dot or the at sign, never inside a word, and nothing else is cut', () => {
    expect(addressParts('reception.desk@example.com')).toEqual(['reception', '.desk', '@example', '.com']);
    expect(addressParts('Gave Q-WA6X-RW to ann.lee@example.com.')).toEqual(['Gave Q-WA6X-RW to ann', '.lee', '@example', '.com.']);
    expect(addressParts('Changed Q-P7RH-Q4 from New to Contacted.')).toEqual(['Changed Q-P7RH-Q4 from New to Contacted.']);
    expect(addressParts('command line (root)')).toEqual(['command line (root)']);
    for (const text of ['a.b@c.d and e@f.g.', 'Signed in.', '']) expect(addressParts(text).join('')).toBe(text);
  });
});
