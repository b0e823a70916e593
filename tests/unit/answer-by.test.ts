/**
 * The promise made to each customer, as an instant: the answer-by time of a request, written out
 * for the cases the office meets (a Friday evening, the evening before a closed day, a closed day,
 * a Saturday, both clock changes), and the working time a request waited, as the contract's example
 * counts it. The example company: one working day, Monday to Friday; the phone answered weekdays
 * 8 to 6 and Saturdays 9 to 1, in Los Angeles; closed on Thanksgiving Day, Thursday November 26, 2026.
 */
import { describe, expect, it } from 'vitest';
import { answerBy, whatHappensNext, workingMinutes, type CallBackPromise } from '../../src/leads/next-step.ts';
import { promise as examplePromise } from '../support/fixtures.ts';

const promise = (): CallBackPromise => ({ ...examplePromise(), closed: [{ date: '2026-11-26', name: 'Thanksgiving Day' }] });
const by = (sent: string) => answerBy(new Date(sent), promise()).toISOString();

describe('the answer-by time of a request', () => {
  it('sent on a Friday evening: Monday at 6 pm', () => {
    expect(by('2026-11-20T19:00:00-08:00')).toBe('2026-11-24T02:00:00.000Z');
  });

  it('sent on the evening before a closed day: the working day after it, Friday at 6 pm', () => {
    expect(by('2026-11-25T20:00:00-08:00')).toBe('2026-11-28T02:00:00.000Z');
    // Without the closed day, it would have been Thanksgiving Day itself.
    expect(answerBy(new Date('2026-11-25T20:00:00-08:00'), examplePromise()).toISOString()).toBe('2026-11-27T02:00:00.000Z');
  });

  it('sent on a closed day: the next working day, and the phone next answered then', () => {
    expect(by('2026-11-26T10:00:00-08:00')).toBe('2026-11-28T02:00:00.000Z');
    expect(whatHappensNext(new Date('2026-11-26T10:00:00-08:00'), promise())).toBe(
      'Example Cleaning Co. answers every request within one working day: expect to hear from the office by 6 pm on ' +
        'Friday, November 27 at the latest (its phone is next answered on Friday, November 27, from 8 am).',
    );
  });

  it('sent on a Saturday while the phone is answered: Monday at 6 pm (Saturday is not a working day)', () => {
    expect(by('2026-11-28T10:00:00-08:00')).toBe('2026-12-01T02:00:00.000Z');
  });

  it('across a clock change: 6 pm local on the other side of it', () => {
    // Clocks go back on Sunday November 1, 2026: Friday is UTC-7, Monday UTC-8.
    expect(by('2026-10-30T19:00:00-07:00')).toBe('2026-11-03T02:00:00.000Z');
    // Clocks go forward on Sunday March 8, 2026: Friday is UTC-8, Monday UTC-7.
    expect(by('2026-03-06T19:00:00-08:00')).toBe('2026-03-10T01:00:00.000Z');
  });

  it('on a working day the phone is not answered: the end of that day', () => {
    const noFridayHours = { ...promise(), hours: promise().hours.map((h) => ({ ...h, days: h.days.filter((d) => d !== 5) })) };
    expect(answerBy(new Date('2026-11-19T10:00:00-08:00'), noFridayHours).toISOString()).toBe('2026-11-21T08:00:00.000Z');
    expect(whatHappensNext(new Date('2026-11-19T10:00:00-08:00'), noFridayHours)).toMatch(/by the end of Friday, November 20 at the latest/);
  });

  it('said from the stored instant, whatever the promise says later', () => {
    const sent = new Date('2026-11-25T20:00:00-08:00');
    const stored = answerBy(sent, examplePromise());
    // The office adds Thanksgiving Day after this request was acknowledged: its sentence does not change.
    expect(whatHappensNext(sent, promise(), { answerBy: stored })).toMatch(/by 6 pm on Thursday, November 26 at the latest/);
  });
});

describe('working time', () => {
  it("the contract's example: sent Friday at 5 pm, first contacted Monday at 9 am, two working hours", () => {
    expect(workingMinutes(new Date('2026-11-20T17:00:00-08:00'), new Date('2026-11-23T09:00:00-08:00'), promise())).toBe(120);
  });

  it('counts neither Saturday hours, nor a closed day, nor the time the office is shut', () => {
    // Wednesday 5 pm to Friday 9 am: Wednesday 5-6 pm, Thanksgiving Day closed, Friday 8-9 am.
    expect(workingMinutes(new Date('2026-11-25T17:00:00-08:00'), new Date('2026-11-27T09:00:00-08:00'), promise())).toBe(120);
    expect(workingMinutes(new Date('2026-11-28T09:00:00-08:00'), new Date('2026-11-28T13:00:00-08:00'), promise())).toBe(0);
    expect(workingMinutes(new Date('2026-11-24T10:00:00-08:00'), new Date('2026-11-24T10:30:00-08:00'), promise())).toBe(30);
    expect(workingMinutes(new Date('2026-11-24T10:30:00-08:00'), new Date('2026-11-24T10:00:00-08:00'), promise())).toBe(0);
  });
});
