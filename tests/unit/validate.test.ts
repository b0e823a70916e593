import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { personMessage } from '../../src/leads/fields.ts';
import { ContactMessage, QuoteRequest } from '../../src/leads/schema.ts';
import { LISTS, validateLead, jsonPointer } from '../../src/leads/validate.ts';
import { contact, quote } from '../support/fixtures.ts';

const errorsOf = (body: unknown) => {
  const v = validateLead(body);
  if (v.ok) throw new Error('expected a validation failure');
  return v;
};
const codes = (body: unknown) => Object.fromEntries(errorsOf(body).errors.map((e) => [e.pointer, e.code]));

describe('validateLead', () => {
  it('accepts a complete quote request and trims its strings', () => {
    const v = validateLead(quote({ name: '  Jane Doe  ' }));
    expect(v.ok).toBe(true);
    if (v.ok && v.lead.formType === 'quote') {
      expect(v.lead.data.name).toBe('Jane Doe');
      expect(v.lead.data.phone).toEqual({ sent: '(503) 555-0142', e164: '+15035550142' });
    }
  });

  it('accepts a contact message selected by formType "support"', () => {
    const v = validateLead(contact());
    expect(v.ok && v.lead.formType).toBe('support');
  });

  it('treats formType "quote" like an absent formType', () => {
    expect(validateLead(quote({ formType: 'quote' })).ok).toBe(true);
  });

  it('refuses any other formType as not_allowed', () => {
    expect(codes(quote({ formType: 'sales' }))).toEqual({ '#/formType': 'not_allowed' });
  });

  it('lists every field problem at once, each with its pointer and code', () => {
    const body = { name: '   ', phone: '555', email: 'not-an-email', bedrooms: 3, service: 'x'.repeat(101), communicationsConsent: true, id: 'mine' };
    expect(codes(body)).toEqual({
      '#/name': 'required',
      '#/phone': 'invalid_format',
      '#/email': 'invalid_format',
      '#/bedrooms': 'invalid_type',
      '#/bathrooms': 'required',
      '#/service': 'too_long',
      '#/notes': 'required',
      '#/id': 'unknown_field',
    });
  });

  it('flags consent that is not the JSON value true, and still lists the other problems', () => {
    for (const consent of [false, 'true', 1, null, undefined]) {
      const v = errorsOf(quote({ communicationsConsent: consent, email: 'x' }));
      expect(v.consentMissing).toBe(true);
      expect(v.errors.map((e) => e.code).sort()).toEqual(['consent_required', 'invalid_format']);
    }
  });

  it('allows empty notes but not a missing notes field', () => {
    expect(validateLead(quote({ notes: '   ' })).ok).toBe(true);
    const { notes: _, ...withoutNotes } = quote();
    expect(codes(withoutNotes)).toEqual({ '#/notes': 'required' });
  });

  it('checks bedrooms 0–20 whole and bathrooms 0.5–20 in halves', () => {
    for (const ok of ['0', '7', '20']) expect(validateLead(quote({ bedrooms: ok })).ok).toBe(true);
    for (const bad of ['-1', '21', '2.5', 'two', '03x']) expect(codes(quote({ bedrooms: bad }))).toEqual({ '#/bedrooms': 'invalid_format' });
    for (const ok of ['0.5', '1', '2.5', '20']) expect(validateLead(quote({ bathrooms: ok })).ok).toBe(true);
    for (const bad of ['0', '2.25', '20.5', '21', 'x']) expect(codes(quote({ bathrooms: bad }))).toEqual({ '#/bathrooms': 'invalid_format' });
  });

  it('accepts common U.S. phone spellings and refuses others', () => {
    for (const ok of ['503-555-0142', '+1 (503) 555-0142', '1 503 555 0142', '503.555.0142', '5035550142']) {
      expect(validateLead(quote({ phone: ok })).ok, ok).toBe(true);
    }
    for (const bad of ['555-0142', '+44 20 7946 0958', '1-800-FLOWERS', '503555014', 'call 503 555 0142', '+1 503 555 0142 ext 5']) {
      expect(codes(quote({ phone: bad })), bad).toEqual({ '#/phone': 'invalid_format' });
    }
  });

  it('takes consentTimestamp with any RFC 3339 offset and keeps it in UTC, not more than five minutes ahead', () => {
    expect(validateLead(quote({ consentTimestamp: new Date(Date.now() + 60_000).toISOString() })).ok).toBe(true);
    const withOffset = validateLead(quote({ consentTimestamp: '2026-11-24T09:03:00-08:00' }));
    expect(withOffset.ok && withOffset.lead.data.consentTimestamp).toBe('2026-11-24T17:03:00.000Z');
    const inUtc = validateLead(quote({ consentTimestamp: '2026-11-24T17:03:00Z' }));
    expect(inUtc.ok && inUtc.lead.data.consentTimestamp).toBe('2026-11-24T17:03:00Z');
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString();
    for (const bad of ['2026-11-22T17:03:00+0100', '2026-11-22', 'yesterday', ahead, ahead.replace('Z', '+00:00')]) {
      expect(codes(quote({ consentTimestamp: bad })), bad).toEqual({ '#/consentTimestamp': 'invalid_format' });
    }
  });

  it('takes "not sure" (spelled so) for bedrooms and bathrooms, never a guess', () => {
    expect(validateLead(quote({ bedrooms: 'not sure', bathrooms: ' not sure ' })).ok).toBe(true);
    for (const bad of ['Not sure', 'unsure', "don't know", 'not  sure']) {
      expect(codes(quote({ bedrooms: bad, bathrooms: bad })), bad).toEqual({ '#/bedrooms': 'invalid_format', '#/bathrooms': 'invalid_format' });
    }
  });

  it('requires pageUrl to be an absolute http(s) URL', () => {
    for (const bad of ['/quote', 'ftp://example.com/x', 'javascript:alert(1)', 'https://']) {
      expect(codes(quote({ pageUrl: bad })), bad).toEqual({ '#/pageUrl': 'invalid_format' });
    }
  });

  it('enforces the maximum lengths', () => {
    expect(codes(quote({ name: 'x'.repeat(201) }))).toEqual({ '#/name': 'too_long' });
    expect(codes(quote({ notes: 'x'.repeat(5001) }))).toEqual({ '#/notes': 'too_long' });
    expect(codes(contact({ message: 'x'.repeat(5001), helpWith: 'x'.repeat(201) }))).toEqual({ '#/message': 'too_long', '#/helpWith': 'too_long' });
  });

  it('refuses fields of the other form and server-owned fields as unknown_field', () => {
    expect(codes(contact({ bedrooms: '2', receivedAt: '2026-01-01T00:00:00Z' }))).toEqual({ '#/bedrooms': 'unknown_field', '#/receivedAt': 'unknown_field' });
  });

  it('says of a member the form does not have that it is to be removed, and where its words go instead', () => {
    const [onContact] = errorsOf(contact({ squareFeet: '1200' })).errors;
    expect(onContact!.detail).toBe(
      'squareFeet is not a field of the contact message form: remove it (anything the customer said that has no field of its own goes in message, in their words)',
    );
    expect(errorsOf(quote({ preferredDay: 'Monday' })).errors[0]!.detail).toMatch(
      /^preferredDay is not a field of the quote request form: remove it .* in notes/,
    );
  });

  it('accepts the consent evidence on a contact message, checked as on a quote request', () => {
    const evidence = { communicationsConsent: true, consentTimestamp: '2026-11-20T17:03:00Z', pageUrl: 'https://www.example-cleaning.com/contact' };
    const v = validateLead(contact(evidence));
    expect(v.ok && v.lead.formType).toBe('support');
    if (v.ok) expect(v.lead.data).toMatchObject(evidence);
    expect(validateLead(contact({ consentTimestamp: '2026-11-20T17:03:00Z' })).ok).toBe(true);
    expect(codes(contact({ consentTimestamp: '2026-11-20', pageUrl: '/contact' }))).toEqual({
      '#/consentTimestamp': 'invalid_format',
      '#/pageUrl': 'invalid_format',
    });
    expect(codes(contact({ consentTimestamp: new Date(Date.now() + 10 * 60_000).toISOString() }))).toEqual({ '#/consentTimestamp': 'invalid_format' });
  });

  it('refuses consent on a contact message that is not true, saying it may be true or left out, with the other problems', () => {
    for (const consent of [false, 'true', null]) {
      const v = errorsOf(contact({ communicationsConsent: consent, email: 'x' }));
      expect(v.consentMissing).toBe(true);
      expect(codes(contact({ communicationsConsent: consent, email: 'x' }))).toEqual({
        '#/communicationsConsent': 'consent_required',
        '#/email': 'invalid_format',
      });
      expect(v.errors.find((e) => e.code === 'consent_required')!.detail).toMatch(
        /must be the JSON value true: .* with communicationsConsent true or left out$/,
      );
    }
  });

  it("tells a customer with another country's phone number what to do instead", () => {
    for (const phone of ['+44 20 7946 0958', '+33 1 23 45 67 89']) {
      const [error] = errorsOf(contact({ phone })).errors;
      expect(error).toMatchObject({ pointer: '#/phone', code: 'invalid_format' });
      expect(error!.detail).toMatch(
        /^phone has the country code \+(44|33): the company calls and texts U\.S\. numbers only\. Send the customer's 10-digit U\.S\. phone number instead; a customer without one can call or e-mail the office/,
      );
    }
    // A U.S. number that is wrong is not "from another country": it gets the rule itself.
    expect(errorsOf(quote({ phone: '+1 211 555 0142' })).errors[0]!.detail).toMatch(/^phone must be a 10-digit U\.S\. phone number/);
  });

  it('takes U.S. numbers, those of the territories included, and refuses the other countries of the +1 plan, saying where each is from', () => {
    const stored = (phone: string) => {
      const v = validateLead(quote({ phone }));
      return v.ok ? v.lead.data.phone.e164 : v.errors;
    };
    // The United States, a toll-free number, and its territories: Puerto Rico, the U.S. Virgin Islands, Guam, the Northern Mariana Islands, American Samoa.
    expect(stored('(503) 555-0142')).toBe('+15035550142');
    expect(stored('+1 212 555 0134')).toBe('+12125550134');
    expect(stored('1-800-555-0142')).toBe('+18005550142');
    expect(stored('+1 787 555 0134')).toBe('+17875550134');
    expect(stored('(939) 555-0134')).toBe('+19395550134');
    expect(stored('+1 340 555 0134')).toBe('+13405550134');
    expect(stored('+1 671 555 0134')).toBe('+16715550134');
    expect(stored('+1 670 555 0134')).toBe('+16705550134');
    expect(stored('+1 684 622 1234')).toBe('+16846221234');
    const instead =
      "the company calls and texts U.S. numbers only. Send the customer's 10-digit U.S. phone number instead; a customer without " +
      "one can call or e-mail the office, whose phone number and e-mail address are on every page of the company's site, rather than " +
      'send this request';
    const refused = (detail: string) => [{ pointer: '#/phone', code: 'invalid_format', detail }];
    expect(stored('+1 604 555 0134')).toEqual(refused(`phone is a number in Canada (area code 604), not in the United States: ${instead}`));
    expect(stored('604-555-0134')).toEqual(refused(`phone is a number in Canada (area code 604), not in the United States: ${instead}`));
    expect(stored('1 (416) 555-0134')).toEqual(refused(`phone is a number in Canada (area code 416), not in the United States: ${instead}`));
    expect(stored('+1 242 225 1234')).toEqual(refused(`phone is a number in the Bahamas (area code 242), not in the United States: ${instead}`));
    expect(stored('+1 876 927 1234')).toEqual(refused(`phone is a number in Jamaica (area code 876), not in the United States: ${instead}`));
    expect(stored('+1 809 555 0134')).toEqual(refused(`phone is a number in the Dominican Republic (area code 809), not in the United States: ${instead}`));
    // Bermuda's area code with an exchange not in service there: still Bermuda's.
    expect(stored('+1 441 555 0134')).toEqual(refused(`phone is a number in Bermuda (area code 441), not in the United States: ${instead}`));
    // American Samoa's area code with an exchange not in service: a U.S. number that is wrong, told the rule itself.
    expect(stored('+1 684 555 0134')).toEqual(
      refused('phone must be a 10-digit U.S. phone number with an area code in service, as a string such as "(503) 555-0142"'),
    );
    // The contact form refuses them alike.
    expect(codes(contact({ phone: '+1 604 555 0134' }))).toEqual({ '#/phone': 'invalid_format' });
    expect(validateLead(contact({ phone: '+1 787 555 0134' })).ok).toBe(true);
  });

  it('tells a person on the web form, in plain words, that a number of another country is not taken, and what to do', () => {
    const told = (phone: string) => personMessage(errorsOf(contact({ phone })).errors[0]!);
    expect(told('+1 604 555 0134')).toBe(
      'This is a number in Canada (area code 604). We call and text U.S. numbers only. Enter a 10-digit U.S. phone number, such as ' +
        '(503) 555-0142, or call or write to us instead (our number and address are on this page).',
    );
    expect(told('+1 242 225 1234')).toBe(
      'This is a number in the Bahamas (area code 242). We call and text U.S. numbers only. Enter a 10-digit U.S. phone number, such ' +
        'as (503) 555-0142, or call or write to us instead (our number and address are on this page).',
    );
    expect(told('+44 20 7946 0958')).toBe(
      'This number has the country code +44. We call and text U.S. numbers only. Enter a 10-digit U.S. phone number, such as ' +
        '(503) 555-0142, or call or write to us instead (our number and address are on this page).',
    );
    expect(told('555-0142')).toBe('Enter a 10-digit U.S. phone number, such as (503) 555-0142.');
  });

  it('says what a consentTimestamp looks like without a second rule about offsets (the documents say to send it in UTC)', () => {
    expect(errorsOf(quote({ consentTimestamp: '2026-11-22' })).errors).toEqual([
      {
        pointer: '#/consentTimestamp',
        code: 'invalid_format',
        detail: 'consentTimestamp must be an RFC 3339 date-time, as a string such as "2026-11-22T17:03:00Z"',
      },
    ]);
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [[], 'lead', 42, null, true]) expect(codes(body)).toEqual({ '#': 'invalid_type' });
  });

  it('refuses control characters and bidirectional overrides, but lets notes and messages span lines', () => {
    for (const bad of ['Jane\u0000', 'Jane\nDoe', 'Jane \u202eeoD', 'x\u2066y'])
      expect(codes(quote({ name: bad })), JSON.stringify(bad)).toEqual({ '#/name': 'invalid_format' });
    expect(validateLead(quote({ notes: 'Line one\r\nLine two\tend' })).ok).toBe(true);
    expect(codes(quote({ notes: 'bell\u0007' }))).toEqual({ '#/notes': 'invalid_format' });
    expect(codes(contact({ message: 'hidden \u202e text' }))).toEqual({ '#/message': 'invalid_format' });
  });

  it('refuses a list over its length once, at the list, without its items; every list of both forms has its length', () => {
    expect(errorsOf(quote({ preferredDates: ['x', 1, null, '2026-13-01'] })).errors).toEqual([
      { pointer: '#/preferredDates', code: 'too_long', detail: 'preferredDates must list at most 3 dates' },
    ]);
    const lists = [QuoteRequest, ContactMessage].flatMap((form) =>
      Object.entries(form.shape)
        .filter(([, member]) => (member instanceof z.ZodOptional ? member.unwrap() : member) instanceof z.ZodArray)
        .map(([name]) => name),
    );
    expect([...new Set(lists)].sort()).toEqual(Object.keys(LISTS).sort());
  });

  it('escapes member names in pointers (RFC 6901, URI fragment form)', () => {
    expect(jsonPointer(['a/b', 'c~d', 'e f'])).toBe('#/a~1b/c~0d/e%20f');
    expect(codes(quote({ 'x/y': 1 }))).toEqual({ '#/x~1y': 'unknown_field' });
  });
});
