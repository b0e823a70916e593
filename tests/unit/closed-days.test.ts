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
