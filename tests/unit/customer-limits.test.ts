/**
 * What a customer says that had no member (issue 47, items 3 and 4): the ways the office may reach
 * them (`allowedContact`: "e-mail only", "call or e-mail, no texts") and the part of the day that
 * suits (`timeOfDay`), taken by the API on a quote request, kept with the lead, and shown to the
 * office in words it keeps to: on its page, in its e-mail and in its spreadsheet.
 */
import { describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { contactLimitWords } from '../../src/office/lead-words.ts';
import { contact, promise, quote, serviceArea } from '../support/fixtures.ts';
import { officeMailText, spreadsheetRows } from '../support/office-output.ts';
import { askedWays, consentSentence, consentWays } from '../../src/leads/contact-ways.ts';
import { whatHappensNext } from '../../src/leads/next-step.ts';
import { quoteForm } from '../../src/content-check/pages.ts';
import { FORM_FIELDS } from '../../src/web-forms/answers.ts';

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
    // A contact message has no time of day (its limits: below).
    expect(
      refused({ formType: 'support', name: 'Jane Doe', email: 'jane@example.com', phone: '(503) 555-0142', helpWith: 'x', message: 'y', timeOfDay: 'morning' }),
    ).toEqual([['#/timeOfDay', 'unknown_field']]);
  });

  it('are said in the words the office keeps to', () => {
    expect(contactLimitWords(['email'])).toBe('E-mail only: no calls, no texts');
    expect(contactLimitWords(['call', 'email'])).toBe('Calls or e-mail; no texts');
    expect(contactLimitWords(['call', 'text', 'email']), 'every way is no limit').toBe('');
    expect(contactLimitWords(undefined)).toBe('');
  });

  it('reach the office in its e-mail and its spreadsheet', async () => {
    const lead = record(quote({ name: 'Priya Raman', allowedContact: ['email'], timeOfDay: 'morning' }));
    const text = officeMailText(lead);
    expect(text).toContain("Reach only by: E-mail only: no calls, no texts (the customer's own limit: keep to it)");
    expect(text).toContain('Time of day: In the morning');
    const [header, values] = await spreadsheetRows(lead);
    const cell = (name: string) => values![header!.indexOf(name)];
    expect(cell('Time of day')).toBe('In the morning');
    expect(cell('Reach only by')).toBe('E-mail only: no calls, no texts');
  });
});

describe("the customer's word (issue 54): consent that matches the limits, on every form, and the answer that says them", () => {
  const refused = (body: Record<string, unknown>) => {
    const v = validateLead(body);
    return v.ok ? [] : v.errors;
  };

  it('refuses a first way to try that the limits leave out, on both forms, saying why; one of them is taken', () => {
    for (const form of [quote, contact]) {
      const [error, ...others] = refused(form({ allowedContact: ['email'], preferredContact: 'text' }));
      expect(others).toEqual([]);
      expect(error).toEqual({
        pointer: '#/preferredContact',
        code: 'not_allowed',
        detail:
          'preferredContact is "text", which allowedContact ("email") does not allow: the first way to try must be one the ' +
          'customer allows, so send one of those, or leave preferredContact out',
      });
      expect(refused(form({ allowedContact: ['text', 'email'], preferredContact: 'text' }))).toEqual([]);
      expect(refused(form({ preferredContact: 'text' }))).toEqual([]);
      // Limits refused on their own are said once, there.
      expect(refused(form({ allowedContact: ['e-mail'], preferredContact: 'text' })).map((e) => e.pointer)).toEqual(['#/allowedContact/0']);
    }
  });

  it('keeps the limits of a contact message, and with each consent the ways it agreed to', () => {
    const message = record(contact({ allowedContact: ['text'], preferredContact: 'text', communicationsConsent: true }));
    expect(message.fields).toMatchObject({ allowedContact: ['text'], preferredContact: 'text' });
    expect(message.consent.ways).toEqual(['text']);
    expect(record(contact()).consent.ways).toBeUndefined();
    expect(record(quote()).consent.ways).toEqual(['call', 'text', 'email']);
    expect(record(quote({ allowedContact: ['email', 'call'] })).consent.ways).toEqual(['call', 'email']);
    // Other limits make another message; a message without them keeps the fingerprint it always had.
    const same = { name: 'John Roe', email: 'john@example.com', helpWith: 'Rescheduling a visit', message: 'Monday instead?' };
    expect(record(contact({ ...same, allowedContact: ['text'] })).fingerprint).not.toBe(record(contact(same)).fingerprint);
    expect(record(contact(same)).fingerprint).toBe(record(contact({ ...same, communicationsConsent: true })).fingerprint);
  });

  it("says the consent with the ways ticked, and the editors' text must have a place for them", () => {
    const template = 'I agree that Example Cleaning Co. may {ways} about this request.';
    expect(consentSentence(template, undefined)).toBe('I agree that Example Cleaning Co. may call me, text me and e-mail me about this request.');
    expect(consentSentence(template, ['email', 'text'])).toBe('I agree that Example Cleaning Co. may text me and e-mail me about this request.');
    expect(consentSentence(template, ['call'])).toBe('I agree that Example Cleaning Co. may call me about this request.');
    expect(consentSentence(template, 'ticked')).toBe('I agree that Example Cleaning Co. may contact me in the ways ticked above about this request.');
    expect(consentWays([])).toBe('contact me in the ways ticked above');
    const form = (consent: string) => ({
      title: 'Ask for a quote',
      description: 'Tell us about your home and the cleaning you would like.',
      nav: { label: 'Get a quote', order: 1 },
      submit: 'Send my request',
      received: 'Request received',
      fields: Object.fromEntries(FORM_FIELDS.quote.map((n) => [n, { label: `Label of ${n}` }])),
      services: ['Deep clean'],
      consent,
    });
    const ok = 'I agree that {company} may {ways} about this request. This consent is not a condition of buying anything.';
    expect(quoteForm.safeParse(form(ok)).success).toBe(true);
    const without = quoteForm.safeParse(form(ok.replace('{ways}', 'call me, text me and e-mail me')));
    expect(without.success).toBe(false);
    expect(without.error?.issues.map((i) => i.message).join(' ')).toMatch(/\{ways\}/);
  });

  it("repeats the limits in the answer as the customer's own, never naming a single way the office has not chosen", () => {
    const at = new Date('2026-11-23T17:03:00Z');
    const plain = whatHappensNext(at, promise());
    expect(whatHappensNext(at, promise(), { ways: ['call', 'text', 'email'] })).toBe(plain);
    const limited = whatHappensNext(at, promise(), { ways: ['email', 'text'] });
    expect(limited).toBe(plain.replace('from the office by ', 'from the office by text or e-mail, as you asked, by '));
    expect(whatHappensNext(at, promise(), { ways: ['email'] })).toContain('expect to hear from the office by e-mail only, as you asked, by ');
    expect(askedWays(['call', 'email'])).toBe('by phone or e-mail, as you asked');
    expect(askedWays(undefined)).toBe('');
  });
});
