/** The promise in the office's words: "answer by Fri 6 pm", due today, late, and whether the first contact came in time. */
import { describe, expect, it } from 'vitest';
import { answerByWords, answeredInTime, promiseState, waitingWords } from '../../src/office/promise-words.ts';

const LA = 'America/Los_Angeles';
const at = (s: string) => new Date(s);

describe('the promise in the office’s words', () => {
  const monday6pm = at('2026-11-23T18:00:00-08:00');
  it('says the answer-by time as near as it is', () => {
    expect(answerByWords(monday6pm, at('2026-11-23T09:00:00-08:00'), LA)).toBe('today 6 pm');
    expect(answerByWords(monday6pm, at('2026-11-20T19:00:00-08:00'), LA)).toBe('Mon 6 pm');
    expect(answerByWords(at('2026-12-07T12:30:00-08:00'), at('2026-11-23T09:00:00-08:00'), LA)).toBe('Mon, Dec 7, 12:30 pm');
  });

  it('marks a waiting lead late once its answer-by has passed, and due today on its day', () => {
    expect(promiseState(monday6pm, at('2026-11-23T18:01:00-08:00'), LA)).toBe('late');
    expect(promiseState(monday6pm, at('2026-11-23T08:00:00-08:00'), LA)).toBe('today');
    expect(promiseState(monday6pm, at('2026-11-22T20:00:00-08:00'), LA)).toBe('later');
    expect(waitingWords(monday6pm, at('2026-11-24T09:00:00-08:00'), LA)).toBe('Late: answer by Mon 6 pm');
    expect(waitingWords(monday6pm, at('2026-11-23T09:00:00-08:00'), LA)).toBe('Due today: answer by today 6 pm');
    expect(waitingWords(monday6pm, at('2026-11-21T09:00:00-08:00'), LA)).toBe('Answer by Mon 6 pm');
  });

  it('counts a first contact at the answer-by instant itself as in time', () => {
    expect(answeredInTime(monday6pm, monday6pm)).toBe(true);
    expect(answeredInTime(at('2026-11-23T18:00:01-08:00'), monday6pm)).toBe(false);
  });
});
