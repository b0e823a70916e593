/**
 * The office's e-mail about one new lead: who, what they asked for, how to reach them (a link for
 * each way they allowed, their first choice first, the ways left out said in words), where the
 * home is (its town, or outside the service area) and when they would like us, when it came and
 * its short reference (in the subject too, so that the office finds it by searching).
 * Plain text. Every value that reaches a header (the subject, the Reply-To name) is reduced to one
 * line of printable text first, so that no field, however it was stored,
 * can add a header, and is then written so that the office's mail client shows exactly that text
 * (`literalHeaderText`); Nodemailer encodes the rest.
 */
import { encodeWord } from 'nodemailer/lib/mime-funcs';
import type { LeadRecord } from '../leads/lead.ts';
import { formatUsPhone } from '../leads/phone.ts';
import type { ServiceArea } from '../leads/service-area.ts';
import { bedroomsWords, choiceWords, contactLimitWords, daysWords, OFFICE_LABELS, spanWords, textList, zipWords } from '../office/lead-words.ts';
import { shortTime, zoneAbbreviation } from '../office/local-time.ts';
import { firstChoiceWords, reachOf } from '../office/reach.ts';

/** What every message shares: the office's addresses, the site and the company. */
export interface OfficeMailSettings {
  from: { name: string; address: string };
  to: readonly string[];
  /** The public origin (`SITE_URL`): its host names the `Message-ID`s. */
  siteUrl: string;
  /** The company; its `serviceArea`, when given, names the town of a lead's ZIP code. */
  company: { name: string; timeZone: string; serviceArea?: ServiceArea };
}

/** The message, as Nodemailer takes it. */
export interface OfficeMessage {
  from: { name: string; address: string };
  to: string[];
  replyTo?: { name: string; address: string };
  subject: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
}

/** How each field is named to the office, in the order it is listed; a field not named here follows under its own name. */
const LABELS: Record<string, string> = {
  name: 'Name',
  phone: 'Phone',
  email: 'E-mail',
  postalCode: 'ZIP code',
  bedrooms: 'Bedrooms',
  bathrooms: 'Bathrooms',
  service: 'Service',
  preferredDates: 'Preferred days',
  preferredWindow: 'Window of days',
  timeOfDay: 'Time of day',
  frequency: 'How often',
  preferredContact: 'Reach first by',
  allowedContact: OFFICE_LABELS.allowedContact!,
  helpWith: 'Help with',
  notes: 'Notes',
  message: 'Message',
};
/** Fields the message states in its own words (the form, the consent), not as a row. */
const STATED_ELSEWHERE = new Set(['formType', 'communicationsConsent', 'consentTimestamp', 'pageUrl']);
/** Fields that may span lines: listed last, indented under their label. */
const MULTI_LINE = new Set(['notes', 'message']);

const WHAT = { quote: 'Quote request', support: 'Contact message' } as const;

// Control characters (C0, C1, DEL), line and paragraph separators, and bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069). They become a space rather than a visible
// escape: validation refuses the control and bidirectional ones in a field that is one line, so
// only a lead stored before that rule, or by hand, can hold one, and the office needs a name it
// can read, not a code point. Left in a subject or a display name, an override reverses the text
// after it (a name can then show as an address) and a line break can split the header.
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/** A value as one line of printable text, at most `max` characters. */
export function oneLine(value: string, max = 200): string {
  const line = value.replace(NOT_ONE_LINE, ' ').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Header text that the office's mail client shows as these very characters. Nodemailer passes on
 * text that already reads as an RFC 2047 encoded word (`=?UTF-8?Q?…?=`) as it is, and the client
 * then decodes it: a name typed as `=?UTF-8?B?Q0VPIDxjZW9AZXhhbXBsZS1jbGVhbmluZy5jb20+?=` would show
 * as "CEO <ceo@example-cleaning.com>", and `=0D=0A` or `=E2=80=AE` as a line break or a
 * right-to-left override that no check ever saw. Text holding `=?` is therefore encoded as a
 * whole, so that decoding gives back the `=?` and everything around it; other text is left to
 * Nodemailer, which encodes what needs it.
 */
export function literalHeaderText(text: string): string {
  return text.includes('=?') ? encodeWord(text, 'Q', 52) : text;
}

/** Free text with its line breaks kept (as `\n`), every other control character removed. */
function paragraphs(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(NOT_TEXT, ' ').trim();
}

const LOOKS_LIKE_ADDRESS = /^[^\s@<>",;:\\()[\]]+@[^\s@<>",;:\\()[\]]+\.[^\s@<>",;:\\()[\]]+$/;

/** A moment of the lead in the office's words and time zone ("Sun 22 Nov, 9:03 am PST"), its year said when not the year it came in. */
function receivedWords(moment: string, timeZone: string, receivedAt = moment): string {
  const at = new Date(moment);
  return `${shortTime(at, timeZone, new Date(receivedAt))} ${zoneAbbreviation(at, timeZone)}`;
}

/**
 * How to reach the customer, as they allow (`reachOf`): a line with a one-tap link (`sms:`, `tel:`,
 * `mailto:`) for each way they allowed, their first choice first and said so, then the ways they
 * left out, in words. The number is the stored one (`phoneE164`), in national format.
 */
function reachLines(lead: LeadRecord): string[] {
  const reach = reachOf({ ...lead.fields, phone: lead.phoneE164, email: lead.emailNormalised });
  return [
    'How to reach them (as they allow, their first choice first):',
    ...reach.links.map((l) => `  ${l.verb}: ${oneLine(l.to, 254)}  ${oneLine(l.href, 270)}${l.first ? '  (their first choice)' : ''}`),
    ...(reach.refused ? [`  Not allowed: ${reach.refused}`] : []),
  ];
}

/** The office's message about `lead`. The same lead always gives the same `Message-ID`. */
export function officeMessage(lead: LeadRecord, settings: OfficeMailSettings): OfficeMessage {
  const name = oneLine(String(lead.fields.name ?? ''), 100) || 'a customer';
  const what = WHAT[lead.formType] ?? 'Lead';
  const value = (field: string) => String(lead.fields[field] ?? '');

  const rows: string[] = [];
  const blocks: string[] = [];
  const listed = [...Object.keys(LABELS), ...Object.keys(lead.fields).filter((f) => !(f in LABELS) && !STATED_ELSEWHERE.has(f))];
  for (const field of listed) {
    if (!Object.hasOwn(lead.fields, field)) continue;
    const label = LABELS[field] ?? oneLine(field, 40);
    if (field === 'phone') {
      // The number alone: the link to call or text it is under "How to reach them", where the customer allowed it.
      const typed = oneLine(value('phone'), 60);
      const national = formatUsPhone(lead.phoneE164);
      rows.push(`${label}: ${national}${typed && typed !== national ? `  (as typed: ${typed})` : ''}`);
    } else if (field === 'email') {
      const typed = oneLine(value('email'), 254);
      rows.push(`${label}: ${oneLine(lead.emailNormalised, 254)}${typed.toLowerCase() !== lead.emailNormalised ? `  (as typed: ${typed})` : ''}`);
    } else if (field === 'postalCode') {
      rows.push(`${label}: ${oneLine(zipWords(value(field), lead.inServiceArea, settings.company.serviceArea), 200)}`);
    } else if (field === 'preferredDates') {
      const days = textList(lead.fields.preferredDates);
      if (days.length > 0) rows.push(`${label}: ${oneLine(daysWords(days), 200)}`);
    } else if (field === 'preferredWindow') {
      rows.push(`${label}: ${oneLine(spanWords(lead.fields.preferredWindow), 200)}`);
    } else if (field === 'bedrooms') {
      rows.push(`${label}: ${oneLine(bedroomsWords(value(field)), 200)}`);
    } else if (field === 'allowedContact') {
      const limits = contactLimitWords(lead.fields.allowedContact);
      if (limits) rows.push(`${label}: ${oneLine(limits, 200)} (the customer's own limit: keep to it)`);
    } else if (field === 'preferredContact') {
      rows.push(`${label}: ${oneLine(firstChoiceWords(lead.fields), 200)}`);
    } else if (field === 'frequency' || field === 'timeOfDay') {
      rows.push(`${label}: ${oneLine(choiceWords(field, value(field)), 200)}`);
    } else if (MULTI_LINE.has(field)) {
      const text = paragraphs(value(field));
      blocks.push(
        `${label}:\n${
          text
            ? text
                .split('\n')
                .map((l) => `  ${l}`)
                .join('\n')
            : '  (empty)'
        }`,
      );
    } else {
      rows.push(`${label}: ${oneLine(value(field), 5000)}`);
    }
  }

  const consent = lead.consent;
  const consentLine =
    consent.communicationsConsent === true
      ? `Consent to be contacted: given${consent.consentTimestamp ? ` at ${oneLine(consent.consentTimestamp, 40)}` : ''}` +
        `${consent.pageUrl ? ` on ${oneLine(consent.pageUrl, 2000)}` : ''}`
      : 'Consent to be contacted: not asked (a contact message: answer what it asks)';
  const cameBy = consent.channel === 'web-form' ? `the form on this site (${oneLine(lead.receivedVia, 100)})` : `the API (${oneLine(lead.receivedVia, 100)})`;
  const received = receivedWords(lead.receivedAt, settings.company.timeZone);
  const address = oneLine(lead.emailNormalised, 254);
  const canReply = LOOKS_LIKE_ADDRESS.test(address);

  // The promise the customer was given: the office answers by then.
  const promised = lead.answerBy
    ? [`Answer by: ${receivedWords(lead.answerBy, settings.company.timeZone, lead.receivedAt)} (the customer was told to expect it by then)`]
    : [];
  const text = [
    `${what} from ${name}, received ${received}.`,
    ...promised,
    `Reference: ${lead.reference} (the customer was given it, and may quote it)`,
    '',
    ...reachLines(lead),
    '',
    ...rows,
    '',
    ...blocks.flatMap((b) => [b, '']),
    consentLine,
    `Came by: ${cameBy}`,
    `Received: ${lead.receivedAt} (UTC)`,
    `Lead id: ${lead.id}`,
    '',
    canReply
      ? 'Reply to this e-mail to write to the customer.'
      : "The customer's address could not be used as a reply address: write to them from the details above.",
    '',
  ].join('\n');

  return {
    from: { name: oneLine(settings.from.name, 100) || settings.company.name, address: settings.from.address },
    to: [...settings.to],
    // Nodemailer puts a display name of printable ASCII, as these encoded words are, in quotes,
    // and has no way to send it unquoted. Most mail clients (and mailparser) decode encoded words
    // there too, against RFC 2047 §5 (it is how a typed one was shown decoded), and so show the
    // name as typed; a client that keeps to the RFC shows the encoded words themselves, never
    // another name.
    ...(canReply && { replyTo: { name: literalHeaderText(name), address } }),
    subject: literalHeaderText(oneLine(`${what} ${lead.reference} from ${name}`, 150)),
    text,
    messageId: `<lead-${lead.id}@${new URL(settings.siteUrl).hostname}>`,
    // A machine's message (RFC 3834): vacation and other automatic replies are not sent to the customer.
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}
