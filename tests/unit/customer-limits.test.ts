/**
 * What a customer says that had no member (issue 47, items 3 and 4): the ways the office may reach
 * them (`allowedContact`: "e-mail only", "call or e-mail, no texts") and the part of the day that
 * suits (`timeOfDay`), taken by the API on a quote request, kept with the lead, and shown to the
 * office in words it keeps to: on its page, in its e-mail and in its spreadsheet.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { officeMessage } from '../../src/mail/office-message.ts';
import { exportChunks } from '../../src/office/export.ts';
import { contactLimitWords } from '../../src/office/lead-words.ts';
import type { InboxLead } from '../../src/office/store.ts';
import { quote, serviceArea } from '../support/fixtures.ts';

const LA = 'America/Los_Angeles';
const now = new Date('2026-11-22T17:03:05.123Z');

function record(body: Record<string, unknown>) {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'test', now }, serviceArea());
}

describe("the customer's limits and the time of day", () => {
  it('are taken on a quote request and kept with the lead, each way once', () => {
    const lead = record(quote({ allowedContact: ['call', 'email'], timeOfDay: 'morning' }));
    expect(lead.fields).toMatchObject({ allowedContact: ['call', 'email'], timeOfDay: 'morning' });
    const refused = (body: Record<string, unknown>) => {
      const v = validateLead(body);
      return v.ok ? [] : v.errors.map((e) => [e.pointer, e.code]);
    };
    expect(refused(quote({ allowedContact: ['email', 'email'] }))).toEqual([['#/allowedContact', 'invalid_format']]);
    expect(refused(quote({ allowedContact: [] }))).toEqual([['#/allowedContact', 'required']]);
    expect(refused(quote({ allowedContact: ['e-mail'] }))).toEqual([['#/allowedContact/0', 'invalid_format']]);
    expect(refused(quote({ allowedContact: 'email' }))).toEqual([['#/allowedContact', 'invalid_type']]);
    expect(refused(quote({ timeOfDay: 'evening' }))).toEqual([['#/timeOfDay', 'invalid_format']]);
    // A contact message has neither.
    expect(
      refused({ formType: 'support', name: 'Jane Doe', email: 'jane@example.com', phone: '(503) 555-0142', helpWith: 'x', message: 'y', timeOfDay: 'morning' }),
    ).toEqual([['#/timeOfDay', 'unknown_field']]);
  });

  it('are said in the words the office keeps to', () => {
    expect(contactLimitWords(['email'])).toBe('E-mail only: no calls, no texts');
    expect(contactLimitWords(['call', 'email'])).toBe('Calls or e-mail; no texts');
    expect(contactLimitWords(['call', 'text', 'email'])).toBe('Calls, texts, or e-mail');
    expect(contactLimitWords(undefined)).toBe('');
  });

  it('reach the office in its e-mail and its spreadsheet', async () => {
    const lead = record(quote({ name: 'Priya Raman', allowedContact: ['email'], timeOfDay: 'morning' }));
    const settings = {
      siteUrl: 'https://www.example-cleaning.com',
      from: { name: 'Lead intake', address: 'leads@example.com' },
      to: ['office@example.com'],
      company: { name: 'Example Cleaning Co.', timeZone: LA, serviceArea: serviceArea() },
    };
    const { text } = officeMessage(lead, settings);
    expect(text).toContain("Reach only by: E-mail only: no calls, no texts (the customer's own limit: keep to it)");
    expect(text).toContain('Time of day: In the morning');
    const item: InboxLead = { lead, owner: undefined, notes: [], status: 'new', statusBy: undefined, statusAt: undefined };
    const source = {
      exportLeads: async function* () {},
      exportInbox: async function* () {
        yield item;
      },
    };
    let csv = '';
    for await (const chunk of exportChunks(source, 'csv', {}, LA, { leads: 0 })) csv += chunk;
    const [row] = parse(csv.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    const cell = (name: string) => row![name];
    expect(cell('Time of day')).toBe('In the morning');
    expect(cell('Reach only by')).toBe('E-mail only: no calls, no texts');
  });
});
