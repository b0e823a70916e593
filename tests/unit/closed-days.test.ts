/**
 * Closed days as the editors' data: listed in content/company.yaml with a date and a name, checked
 * with the file and line of a malformed date, a day gone by kept and ignored (a build never fails
 * because time passed), and the ones still to come said under the opening hours.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../src/content-check/check.ts';
import { readContent } from '../../src/content-check/read.ts';
import { closedDaysAhead, closedDaysSentence, companyOf } from '../../src/site/from-content.ts';
import { ROOT } from '../support/server.ts';
import { statusDocument } from '../../src/http/status-handler.ts';
import { loadConfig } from '../../src/config/config.ts';
import { offer, serviceArea } from '../support/fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'closed-days-'));
cpSync(join(ROOT, 'content'), join(dir, 'content'), { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const shipped = readFileSync(join(ROOT, 'content/company.yaml'), 'utf8');
const withClosedDays = (lines: string) => shipped.replace(/ {2}closedDays:\n( {4}- .*\n)+/, `  closedDays:\n${lines}`);

describe('closed days in content/company.yaml', () => {
  it('are read into the promise, dates as the office’s calendar days, names kept', () => {
    const company = companyOf(readContent(ROOT).company);
    expect(company.promise.closed).toContainEqual({ date: '2026-12-25', name: 'Christmas Day' });
  });

  it('refuse a date that is not one, with its file, line and an example', () => {
    writeFileSync(
      join(dir, 'content/company.yaml'),
      withClosedDays('    - { date: 2026-12-25, name: Christmas Day }\n    - { date: 25/12/2026, name: Boxing Day }\n'),
    );
    const mistakes = checkContent(dir);
    const line = withClosedDays('    - { date: 2026-12-25, name: Christmas Day }\n    - { date: 25/12/2026, name: Boxing Day }\n')
      .split('\n')
      .findIndex((l) => l.includes('25/12/2026'));
    expect(mistakes).toEqual([
      expect.objectContaining({
        file: 'content/company.yaml',
        line: line + 1,
        field: 'closedDays → day 2 → date',
        allowed: 'must be a date written YYYY-MM-DD',
      }),
    ]);
  });

  it('take only a real day written YYYY-MM-DD, without a time of day, each once, with a plain name: every mistake with its line, in words', () => {
    const days = [
      '    - { date: 2026-12-25, name: Christmas Day }',
      '    - { date: 2026-02-30, name: Leap Day }',
      '    - { date: 2026-13-01 }',
      '    - { date: 2026-11-26T10:00:00, name: Thanksgiving Day }',
      '    - { date: 2026-12-24 09:00 }',
      '    - { date: 2026-7-4 }',
      '    - { date: "2026-12-31" }',
      '    - { date: 2026-12-25, name: Christmas again }',
      '    - { date: 2027-01-01, name: "New Year\u202e\u200b Day" }',
      '    - { date: 2027-01-02, name: "Day\u0000 after" }',
    ];
    const file = withClosedDays(`${days.join('\n')}\n`);
    writeFileSync(join(dir, 'content/company.yaml'), file);
    const lineOf = (text: string) => file.split('\n').findIndex((l) => l.includes(text)) + 1;
    const at = (n: number, field = 'date') => ({ file: 'content/company.yaml', line: lineOf(days[n - 1]!), field: `closedDays → day ${n} → ${field}` });
    expect(checkContent(dir)).toEqual([
      {
        ...at(2),
        allowed: 'must be a day the calendar has: a month from 01 to 12, and a day that month has',
        example: 'date: 2026-11-26',
        found: 'the date 2026-02-30',
      },
      {
        ...at(3),
        allowed: 'must be a day the calendar has: a month from 01 to 12, and a day that month has',
        example: 'date: 2026-11-26',
        found: 'the date 2026-13-01',
      },
      { ...at(4), allowed: 'must be a day alone, without a time of day', example: 'date: 2026-11-26', found: 'the date 2026-11-26T10:00:00' },
      { ...at(5), allowed: 'must be a day alone, without a time of day', example: 'date: 2026-11-26', found: '16 characters ("2026-12-24 09:00")' },
      {
        ...at(6),
        allowed: 'must be written YYYY-MM-DD, with two digits for the month and two for the day',
        example: 'date: 2026-11-26',
        found: 'the date 2026-7-4',
      },
      { ...at(7), allowed: 'must be a date written YYYY-MM-DD, without quotes around it', example: 'date: 2026-11-26', found: '10 characters ("2026-12-31")' },
      { ...at(8), allowed: 'must be a day not listed already: day 1 is the same day', found: 'the date 2026-12-25' },
      {
        ...at(9, 'name'),
        allowed: 'must be plain text, without control characters, direction marks or invisible characters',
        example: 'name: Thanksgiving Day',
        found: '14 characters ("New Year[U+202E][U+200B] Day")',
      },
      {
        ...at(10, 'name'),
        allowed: 'must be plain text, without control characters, direction marks or invisible characters',
        example: 'name: Thanksgiving Day',
        found: '10 characters ("Day[U+0000] after")',
      },
    ]);
    // Put right, they are read as the days written.
    writeFileSync(join(dir, 'content/company.yaml'), withClosedDays('    - { date: 2028-02-29, name: Leap Day }\n    - { date: 2026-12-31 }\n'));
    expect(checkContent(dir)).toEqual([]);
    expect(companyOf(readContent(dir).company).promise.closed).toEqual([{ date: '2028-02-29', name: 'Leap Day' }, { date: '2026-12-31' }]);
  });

  it('keep a day gone by without a word: no mistake, and not said on the site', () => {
    writeFileSync(join(dir, 'content/company.yaml'), withClosedDays('    - { date: 2020-12-25, name: Christmas Day }\n    - { date: 2026-12-25 }\n'));
    expect(checkContent(dir)).toEqual([]);
    const { promise } = companyOf(readContent(dir).company);
    const now = new Date('2026-11-27T12:00:00-08:00');
    expect(closedDaysAhead(promise, now)).toEqual([{ date: '2026-12-25' }]);
    expect(closedDaysSentence(promise, now)).toBe('Closed on Friday, December 25.');
  });

  it('say the ones to come under the hours, in order, with their names', () => {
    const promise = {
      ...companyOf(readContent(ROOT).company).promise,
      closed: [
        { date: '2027-01-01', name: "New Year's Day" },
        { date: '2026-11-26', name: 'Thanksgiving Day' },
        { date: '2026-12-25', name: 'Christmas Day' },
      ],
    };
    // On Thanksgiving Day itself, in the office's time zone (already Friday in UTC), it is still to come.
    expect(closedDaysSentence(promise, new Date('2026-11-27T05:00:00Z'))).toBe(
      "Closed on Thursday, November 26 (Thanksgiving Day), Friday, December 25 (Christmas Day), and Friday, January 1 (New Year's Day).",
    );
    expect(closedDaysSentence({ ...promise, closed: [] })).toBe('');
  });

  it('are published in GET /api/v1 beside the phone hours, the ones still to come alone', () => {
    const promise = { ...companyOf(readContent(ROOT).company).promise, closed: [{ date: '2026-11-26', name: 'Thanksgiving Day' }, { date: '2026-12-25' }] };
    const doc = statusDocument(loadConfig({}), offer(), serviceArea(), true, promise, new Date('2026-11-27T12:00:00-08:00'));
    expect(doc.office).toEqual({
      timeZone: 'America/Los_Angeles',
      hours: ['Monday to Friday, 8 am to 6 pm', 'Saturday, 9 am to 1 pm'],
      closedDays: [{ date: '2026-12-25' }],
    });
  });
});
