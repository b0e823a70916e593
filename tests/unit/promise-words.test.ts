/**
 * The promise in the office's words: "answer by Fri 6 pm", due today, on the next working day, late
 * and by how much (in working time), whether the first contact came in time, and the groups the
 * inbox heads its waiting leads by. Every clock is handed in.
 */
import { describe, expect, it } from 'vitest';
import { answerByWords, answeredInTime, groupOf, lateByWords, promiseState, waitingGroups, waitingWords } from '../../src/office/promise-words.ts';
import { shortTime } from '../../src/office/local-time.ts';
import { promise } from '../support/fixtures.ts';

const LA = 'America/Los_Angeles';
const at = (s: string) => new Date(s);

describe('the promise in the office’s words', () => {
  const monday6pm = at('2026-11-23T18:00:00-08:00');
  it('says the answer-by time as near as it is: a weekday alone names a day of the coming week only', () => {
    expect(answerByWords(monday6pm, at('2026-11-23T09:00:00-08:00'), LA)).toBe('today 6 pm');
    expect(answerByWords(monday6pm, at('2026-11-20T19:00:00-08:00'), LA)).toBe('Mon 6 pm');
    expect(answerByWords(at('2026-12-07T12:30:00-08:00'), at('2026-11-23T09:00:00-08:00'), LA)).toBe('Mon 7 Dec, 12:30 pm');
    // Last Monday, read on a Saturday, carries its date: it never reads like next Monday.
    expect(answerByWords(at('2026-11-16T18:00:00-08:00'), at('2026-11-21T10:00:00-08:00'), LA)).toBe('Mon 16 Nov, 6 pm');
    expect(answerByWords(at('2026-11-30T18:00:00-08:00'), at('2026-11-21T10:00:00-08:00'), LA)).toBe('Mon 30 Nov, 6 pm');
    expect(answerByWords(at('2026-11-23T18:00:00-08:00'), at('2026-11-21T10:00:00-08:00'), LA)).toBe('Mon 6 pm');
  });

  it('writes every moment in one style, with the year only when it is not this year’s', () => {
    expect(shortTime(at('2026-11-23T17:03:00-08:00'), LA, at('2026-11-28T10:00:00-08:00'))).toBe('Mon 23 Nov, 5:03 pm');
    expect(shortTime(at('2025-12-31T09:00:00-08:00'), LA, at('2026-01-02T10:00:00-08:00'))).toBe('Wed 31 Dec 2025, 9 am');
  });

  it('marks a waiting lead late once its answer-by has passed, and due today on its day', () => {
    expect(promiseState(monday6pm, at('2026-11-23T18:01:00-08:00'), LA)).toBe('late');
    expect(promiseState(monday6pm, at('2026-11-23T08:00:00-08:00'), LA)).toBe('today');
    expect(promiseState(monday6pm, at('2026-11-22T20:00:00-08:00'), LA)).toBe('later');
    expect(waitingWords(monday6pm, at('2026-11-24T10:30:00-08:00'), promise())).toBe('Late by 2½ working hours: answer by was Mon 23 Nov, 6 pm');
    expect(waitingWords(monday6pm, at('2026-11-23T09:00:00-08:00'), promise())).toBe('Due today: answer by today 6 pm');
    expect(waitingWords(monday6pm, at('2026-11-21T09:00:00-08:00'), promise())).toBe('Answer by Mon 6 pm');
  });

  it('says how late in working time: minutes, hours, days; nothing while the office has been closed since', () => {
    const p = promise();
    expect(lateByWords(monday6pm, at('2026-11-24T08:40:00-08:00'), p)).toBe('40 working minutes');
    expect(lateByWords(monday6pm, at('2026-11-24T09:00:00-08:00'), p)).toBe('1 working hour');
    expect(lateByWords(monday6pm, at('2026-11-25T09:00:00-08:00'), p)).toBe('1 working day');
    expect(lateByWords(monday6pm, at('2026-11-27T12:00:00-08:00'), p)).toBe('3 working days');
    // Friday 6 pm, read on Saturday evening: the office has not worked since (its promise's days are Monday to Friday).
    expect(lateByWords(at('2026-11-27T18:00:00-08:00'), at('2026-11-28T20:00:00-08:00'), p)).toBeUndefined();
    expect(waitingWords(at('2026-11-27T18:00:00-08:00'), at('2026-11-28T20:00:00-08:00'), p)).toBe('Late: answer by was Fri 27 Nov, 6 pm');
  });

  it('heads the waiting leads late, due today, due on the next working day (Monday after a Friday) and later', () => {
    const friday = at('2026-11-27T10:00:00-08:00');
    const { bounds, groups } = waitingGroups(friday, promise());
    expect(bounds.map((b) => b.toISOString())).toEqual([friday.toISOString(), '2026-11-28T08:00:00.000Z', '2026-12-01T08:00:00.000Z']);
    expect(groups.next.heading).toBe('Due on the next working day, Mon 30 Nov');
    expect(groups.next.count).toBe('due Mon');
    expect(groupOf(at('2026-11-26T18:00:00-08:00'), bounds)).toBe('late');
    expect(groupOf(at('2026-11-27T18:00:00-08:00'), bounds)).toBe('today');
    expect(groupOf(at('2026-11-30T18:00:00-08:00'), bounds)).toBe('next');
    expect(groupOf(at('2026-12-01T18:00:00-08:00'), bounds)).toBe('later');
    expect(groupOf(undefined, bounds)).toBe('later');
    // On a Tuesday the next working day is tomorrow; a closed day is passed over.
    expect(waitingGroups(at('2026-11-24T10:00:00-08:00'), promise()).groups.next.count).toBe('due tomorrow');
    const closed = { ...promise(), closed: [{ date: '2026-11-26', name: 'Thanksgiving' }] };
    expect(waitingGroups(at('2026-11-25T10:00:00-08:00'), closed).groups.next.heading).toBe('Due on the next working day, Fri 27 Nov');
  });

  it('counts a first contact at the answer-by instant itself as in time', () => {
    expect(answeredInTime(monday6pm, monday6pm)).toBe(true);
    expect(answeredInTime(at('2026-11-23T18:00:01-08:00'), monday6pm)).toBe(false);
  });
});
