/**
 * A window of days (issue 54, item 4): "between the 16th and the 19th" as a first and a last day, on
 * a quote request and on a contact message (a visit to move), each day in the window of preferred
 * dates, the last neither before the first nor more than 14 days after it; kept with the lead and
 * read by the office as "Wed 16 – Sat 19 Dec" on its page, in its e-mail and in the spreadsheet's last column.
 */
import { describe, expect, it } from 'vitest';
import { windowWords } from '../../src/leads/fields.ts';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead, type DateWindow } from '../../src/leads/validate.ts';
import { spanWords } from '../../src/office/lead-words.ts';
import { apiMembers, typedValues } from '../../src/web-forms/answers.ts';
import { shownValue } from '../../src/web-forms/choices.ts';
import { contact, quote, serviceArea } from '../support/fixtures.ts';
import { officeMailText, spreadsheetRows } from '../support/office-output.ts';

const window: DateWindow = { from: '2026-11-29', to: '2027-03-29' };
const span = (from: string, to: string) => ({ preferredWindow: { from, to } });
const problems = (body: Record<string, unknown>) => {
  const v = validateLead(body, window);
  return v.ok ? [] : v.errors.map((e) => [e.pointer, e.code]);
};

describe('a window of days', () => {
  it('is taken on both forms, from 0 to 14 days long, each day in the window of preferred dates', () => {
    for (const form of [quote, contact]) {
      expect(problems(form(span('2026-12-16', '2026-12-19')))).toEqual([]);
      expect(problems(form(span('2026-12-16', '2026-12-16')))).toEqual([]);
      expect(problems(form({ ...span('2026-12-01', '2026-12-15'), preferredDates: ['2026-12-05'] }))).toEqual([]);
      expect(problems(form(span('2026-12-01', '2026-12-16')))).toEqual([['#/preferredWindow/to', 'invalid_format']]);
      expect(problems(form(span('2026-12-19', '2026-12-16')))).toEqual([['#/preferredWindow/to', 'invalid_format']]);
      expect(problems(form(span('2026-11-28', '2026-12-01')))).toEqual([['#/preferredWindow/from', 'invalid_format']]);
      expect(problems(form(span('2027-03-28', '2027-03-30')))).toEqual([['#/preferredWindow/to', 'invalid_format']]);
      expect(problems(form({ preferredWindow: { from: '2026-12-16' } }))).toEqual([['#/preferredWindow/to', 'required']]);
      expect(problems(form({ preferredWindow: { ...span('2026-12-16', '2026-12-19').preferredWindow, days: 3 } }))).toEqual([
        ['#/preferredWindow/days', 'unknown_field'],
      ]);
      expect(problems(form({ preferredWindow: '2026-12-16/2026-12-19' }))).toEqual([['#/preferredWindow', 'invalid_type']]);
    }
    // A contact message takes preferred dates too, with the same rules.
    expect(problems(contact({ preferredDates: ['2026-12-05', '2026-12-05'] }))).toEqual([['#/preferredDates', 'invalid_format']]);
  });

  it('is said as the office reads it', () => {
    expect(windowWords('2026-12-16', '2026-12-19')).toBe('Wed 16 – Sat 19 Dec');
    expect(windowWords('2026-12-28', '2027-01-01')).toBe('Mon 28 Dec – Fri 1 Jan');
    expect(windowWords('2026-12-16', '2026-12-16')).toBe('Wed 16 Dec');
    expect(spanWords({ from: 'x', to: 'y' })).toBe('{"from":"x","to":"y"}');
    expect(spanWords(undefined)).toBe('');
  });

  it('comes from the quote form as typed, either box left empty refused as missing', () => {
    const data = new FormData();
    data.append('preferredWindow', '2026-12-16');
    data.append('preferredWindow', '2026-12-19');
    const values = typedValues('quote', data);
    expect(values.preferredWindow).toBe('2026-12-16/2026-12-19');
    expect(apiMembers(values).preferredWindow).toEqual({ from: '2026-12-16', to: '2026-12-19' });
    expect(shownValue('preferredWindow', values.preferredWindow!)).toBe('Wed 16 – Sat 19 Dec');
    const half = new FormData();
    half.append('preferredWindow', '');
    half.append('preferredWindow', '2026-12-19');
    expect(apiMembers(typedValues('quote', half)).preferredWindow).toEqual({ to: '2026-12-19' });
    expect(apiMembers(typedValues('quote', new FormData()))).not.toHaveProperty('preferredWindow');
  });

  it('is kept with the lead and reaches the office in its e-mail, and in its column of the spreadsheet, after the message', async () => {
    const v = validateLead(contact({ name: 'Landlord Lee', ...span('2026-12-16', '2026-12-19') }), window);
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    const now = new Date('2026-11-29T17:03:05.123Z');
    const lead = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'test', now }, serviceArea());
    expect(lead.fields.preferredWindow).toEqual({ from: '2026-12-16', to: '2026-12-19' });
    expect(officeMailText(lead)).toContain('Window of days: Wed 16 – Sat 19 Dec');
    const [header, row] = await spreadsheetRows(lead);
    // Its column stays right after the message, where it was added; later columns come after it.
    const column = header!.indexOf('Window of days');
    expect(header![column - 1]).toBe('Message');
    expect(row![column]).toBe('Wed 16 – Sat 19 Dec');
  });
});
