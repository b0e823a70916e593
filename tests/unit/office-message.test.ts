/**
 * The office's message about a lead, built and then encoded by Nodemailer's own composer and read
 * back by mailparser: what the office's mail client would show.
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { toLeadRecord, type LeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { officeMessage, type OfficeMailSettings } from '../../src/mail/office-message.ts';
import { contact, quote, serviceArea } from '../support/fixtures.ts';

const settings: OfficeMailSettings = {
  from: { name: 'Lead intake', address: 'leads@example.com' },
  to: ['office@example.com', 'owner@example.com'],
  siteUrl: 'https://www.example-cleaning.com',
  company: { name: 'Example Cleaning Co.', timeZone: 'America/Los_Angeles' },
};

function lead(body: Record<string, unknown>, channel: 'api' | 'web-form' = 'api', area = serviceArea()): LeadRecord {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return toLeadRecord(
    v.lead,
    {
      receivedVia: channel === 'api' ? '/api/v1/leads' : '/quote',
      channel,
      clientAddress: '198.51.100.7',
      userAgent: 'test',
      now: new Date('2026-11-22T17:03:05.123Z'),
    },
    area,
  );
}

async function delivered(record: LeadRecord) {
  const raw = await new MailComposer(officeMessage(record, settings)).compile().build();
  return { raw: raw.toString('utf8'), mail: await simpleParser(raw) };
}

describe("the office's message about a lead", () => {
  it('names the form and the customer, lists every field, the normalised phone and e-mail, the receipt time and the reference', async () => {
    const record = lead(quote({ name: 'Jane Doe', email: 'Jane.Doe@Example.com', phone: '503.555.0142', notes: 'Two cats.\nSide door, please.' }));
    const { mail } = await delivered(record);
    expect(mail.subject).toBe(`Quote request ${record.reference} from Jane Doe`);
    expect(record.reference).toMatch(/^Q-[0-9A-Z]{4}-[0-9A-Z]{2}$/);
    expect(mail.from?.value).toEqual([{ name: 'Lead intake', address: 'leads@example.com' }]);
    expect(mail.to && !Array.isArray(mail.to) && mail.to.value.map((a) => a.address)).toEqual(settings.to);
    expect(mail.replyTo?.value).toEqual([{ name: 'Jane Doe', address: 'jane.doe@example.com' }]);
    expect(mail.messageId).toBe(`<lead-${record.id}@www.example-cleaning.com>`);
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    const text = mail.text!;
    expect(text).toContain('Quote request from Jane Doe, received Sun 22 Nov, 9:03 am PST.');
    expect(text).toContain('Name: Jane Doe');
    expect(text).toContain('Phone: (503) 555-0142  (as typed: 503.555.0142)');
    // The address in lower case, as stored; a difference of case alone is not worth a mention.
    expect(text).toMatch(/^E-mail: jane\.doe@example\.com$/m);
    expect(text).toContain('Bedrooms: 3');
    expect(text).toContain('Bathrooms: 2.5');
    expect(text).toContain('Service: Deep clean');
    expect(text).toContain('Notes:\n  Two cats.\n  Side door, please.');
    expect(text).toContain('Consent to be contacted: given at 2026-11-20T17:03:00Z on https://www.example-cleaning.com/quote');
    expect(text).toContain('Came by: the API (/api/v1/leads)');
    expect(text).toContain('Received: 2026-11-22T17:03:05.123Z (UTC)');
    expect(text).toContain(`\nReference: ${record.reference} (the customer was given it, and may quote it)\n`);
    expect(text).toContain(`Lead id: ${record.id}`);
  });

  it('names the answer-by time the customer was given, in the office’s time', async () => {
    // Sunday 9:03 am: one working day from Monday, so by 6 pm on Monday.
    const record = { ...lead(quote({ name: 'Jane Doe' })), answerBy: '2026-11-24T02:00:00.000Z' };
    const { mail } = await delivered(record);
    expect(mail.text).toContain('received Sun 22 Nov, 9:03 am PST.\nAnswer by: Mon 23 Nov, 6 pm PST (the customer was told to expect it by then)\n');
  });

  it('says "Studio" for a home with no bedrooms, and "not sure" as the customer said it', async () => {
    expect((await delivered(lead(quote({ bedrooms: '0' })))).mail.text).toMatch(/^Bedrooms: Studio$/m);
    expect((await delivered(lead(quote({ bedrooms: 'not sure' })))).mail.text).toMatch(/^Bedrooms: not sure$/m);
  });

  it('words a contact message as one, with what it is about and the message', async () => {
    const record = lead(contact({ name: 'John Roe', helpWith: 'Rescheduling a visit', message: 'Friday to Monday?' }));
    const { mail } = await delivered(record);
    expect(mail.subject).toBe(`Contact message ${record.reference} from John Roe`);
    expect(record.reference).toMatch(/^C-/);
    expect(mail.text).toContain('Help with: Rescheduling a visit');
    expect(mail.text).toContain('Message:\n  Friday to Monday?');
    expect(mail.text).toContain('Consent to be contacted: not asked');
  });

  it('gives the same lead the same Message-ID every time, so that a message sent twice shows once', () => {
    const record = lead(quote());
    expect(officeMessage(record, settings).messageId).toBe(officeMessage(record, settings).messageId);
    expect(officeMessage(lead(quote()), settings).messageId).not.toBe(officeMessage(record, settings).messageId);
  });

  it('shows a name that looks like an RFC 2047 encoded word as the characters typed, in the subject, the Reply-To name and the body', async () => {
    // All pass validation (printable ASCII). Decoded by a mail client, the first would show a line
    // break, a forged header line and a right-to-left override, the second another address, the
    // third another name.
    for (const name of [
      '=?UTF-8?Q?Jane_Doe=E2=80=AE=0D=0AX-Fake:_yes=E2=80=AC_URGENT?=',
      '=?UTF-8?B?Q0VPIDxjZW9AZXhhbXBsZS1jbGVhbmluZy5jb20+?=',
      'Jane =?utf-8?q?CEO?= Doe',
    ]) {
      const record = lead(quote({ name, email: 'jane.doe@example.com' }));
      const { raw, mail } = await delivered(record);
      expect(mail.subject).toBe(`Quote request ${record.reference} from ${name}`);
      expect(mail.replyTo?.value).toEqual([{ name, address: 'jane.doe@example.com' }]);
      expect(mail.text).toContain(`Quote request from ${name}, received`);
      expect(mail.text).toContain(`\nName: ${name}\n`);
      expect(mail.headers.has('x-fake')).toBe(false);
      expect(raw.slice(0, raw.indexOf('\r\n\r\n'))).not.toMatch(/^X-Fake:/im);
    }
  });

  it('shows no bidirectional control or line separator from a name that reached the store, and keeps the words apart', async () => {
    const record = lead(quote({ name: 'Jane Doe' }));
    // Validation refuses the bidirectional controls in a name; a lead stored by an older version, or by hand, may hold them.
    const stored: LeadRecord = { ...record, fields: { ...record.fields, name: 'Jane\u202emoc.elpmaxe@oec\u202c Doe\u2066x\u2069\u2028y' } };
    const { mail } = await delivered(stored);
    expect(mail.subject).toBe(`Quote request ${record.reference} from Jane moc.elpmaxe@oec Doe x y`);
    expect(mail.replyTo?.value[0]?.name).toBe('Jane moc.elpmaxe@oec Doe x y');
    expect(mail.text).toContain('\nName: Jane moc.elpmaxe@oec Doe x y\n');
  });

  it('adds no header from a name or e-mail with line breaks, however the lead was stored', async () => {
    const record = lead(quote({ name: 'Jane Doe' }));
    const stored: LeadRecord = {
      ...record,
      fields: { ...record.fields, name: 'Jane\r\nBcc: intruder@example.com\r\nX-Injected: yes' },
      emailNormalised: 'jane@example.com\r\nCc: intruder@example.com',
    };
    const { raw, mail } = await delivered(stored);
    const headerBlock = raw.slice(0, raw.indexOf('\r\n\r\n'));
    expect(headerBlock).not.toMatch(/^(Bcc|Cc|X-Injected):/im);
    expect(mail.bcc).toBeUndefined();
    expect(mail.cc).toBeUndefined();
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(mail.subject).toBe(`Quote request ${record.reference} from Jane Bcc: intruder@example.com X-Injected: yes`);
    // An address that is not one is not used to reply to; the office is told so.
    expect(mail.replyTo).toBeUndefined();
    expect(mail.text).toContain('could not be used as a reply address');
  });

  it('says where the home is, with its town or outside the service area, and the days, how often and how to reach first in words', async () => {
    const where = { postalCode: '97201-1234', preferredDates: ['2026-12-05', '2026-12-07'], frequency: 'every-two-weeks', preferredContact: 'text' };
    const inTown = lead(quote(where));
    const withArea = { ...settings, company: { ...settings.company, serviceArea: serviceArea() } };
    const text = (await simpleParser(await new MailComposer(officeMessage(inTown, withArea)).compile().build())).text!;
    expect(text).toContain('\nZIP code: 97201-1234, Portland, Oregon\n');
    expect(text).toContain('\nPreferred days: Sat 5 Dec, Mon 7 Dec\n');
    expect(text).toContain('\nHow often: Every two weeks\n');
    expect(text).toContain('\nReach first by: A text message\n');
    // In the order the form asks, before the notes.
    expect(text.indexOf('ZIP code:')).toBeLessThan(text.indexOf('Bedrooms:'));
    expect(text.indexOf('Reach first by:')).toBeLessThan(text.indexOf('Notes:'));
    expect(text).not.toContain('preferredDates');
    // Without the towns, the lead's own mark still says it is served; a ZIP code outside them is said to be.
    expect(officeMessage(inTown, settings).text).toContain('\nZIP code: 97201-1234, in the service area\n');
    const far = lead(quote({ postalCode: '10001', frequency: 'once', preferredContact: 'call' }));
    expect(far.inServiceArea).toBe(false);
    const farText = officeMessage(far, withArea).text;
    expect(farText).toContain('\nZIP code: 10001, outside the service area\n');
    expect(farText).toContain('\nHow often: Just once\n');
    expect(farText).toContain('\nReach first by: A phone call\n');
    expect(farText).not.toContain('Preferred days');
  });

  it('links exactly the ways the customer allowed, their first choice first, and says the ways left out', () => {
    const block = (body: Record<string, unknown>) => {
      const text = officeMessage(lead(body), settings).text;
      return text.slice(text.indexOf('How to reach them'), text.indexOf('\n\n', text.indexOf('How to reach them')));
    };
    expect(block(quote({ email: 'ann@example.com', phone: '5035550160' }))).toBe(
      [
        'How to reach them (as they allow, their first choice first):',
        '  Call: (503) 555-0160  tel:+15035550160',
        '  Text: (503) 555-0160  sms:+15035550160',
        '  E-mail: ann@example.com  mailto:ann@example.com',
      ].join('\n'),
    );
    expect(block(quote({ email: 'ann@example.com', phone: '5035550160', allowedContact: ['email'], preferredContact: 'email' }))).toBe(
      [
        'How to reach them (as they allow, their first choice first):',
        '  E-mail: ann@example.com  mailto:ann@example.com  (their first choice)',
        '  Not allowed: no calls, no texts',
      ].join('\n'),
    );
    expect(block(contact({ email: 'ann@example.com', phone: '503.555.0160', allowedContact: ['text', 'email'], preferredContact: 'text' }))).toBe(
      [
        'How to reach them (as they allow, their first choice first):',
        '  Text: (503) 555-0160  sms:+15035550160  (their first choice)',
        '  E-mail: ann@example.com  mailto:ann@example.com',
        '  Not allowed: no calls',
      ].join('\n'),
    );
    // A lead stored before the first choice was checked against the limits: the limits win, and the choice is said not allowed.
    const earlier = lead(quote({ email: 'ann@example.com', allowedContact: ['email'] }));
    const stored = { ...earlier, fields: { ...earlier.fields, preferredContact: 'call' } };
    const text = officeMessage(stored, settings).text;
    expect(text).not.toMatch(/tel:|sms:/);
    expect(text).toContain('\nReach first by: A phone call (not allowed: their own limit says no calls)\n');
  });

  it('adds no row for where and when to a lead that does not say them', () => {
    const text = officeMessage(lead(quote()), { ...settings, company: { ...settings.company, serviceArea: serviceArea() } }).text;
    for (const label of ['ZIP code', 'Preferred days', 'How often', 'Reach first by']) expect(text).not.toContain(`${label}:`);
  });
});
