/**
 * The probes of the lead schemas: for each field of either form, values on the edge of its rule,
 * the text edges every string field gets, values of other types, and members no form has. The
 * published schema and the server must agree on each (`tests/http/schema-conformance.test.ts`),
 * and so must the standalone JSON Schema in any validator (`tests/http/standalone-schema.test.ts`).
 */
import { FIELDS as LEAD_FIELDS, PREFERRED_DATES_DAYS_AHEAD, type FieldName } from '../../src/leads/fields.ts';
import { MAX_LENGTH } from '../../src/leads/schema.ts';
import { promise } from './fixtures.ts';

type Body = Record<string, unknown>;

/** Every member of either form, as the server names them. */
export const FIELDS = Object.keys(LEAD_FIELDS) as FieldName[];

/** Members no form has, some of them names JavaScript treats specially. */
export const STRANGERS = ['extra', 'Name', 'id', '__proto__', 'constructor', 'toString'];

const emoji = (n: number) => '\u{1F9F9}'.repeat(n);
/** The calendar day `n` days from today where the company is (Los Angeles), `YYYY-MM-DD`. */
export const day = (n: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: promise().timeZone }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
};
export const TEXT_EDGES = [
  '',
  ' ',
  '\t\n',
  '\u00a0x\u00a0',
  '\ufeffx',
  'a\u202eb',
  'a\u2066b',
  'a\u0000b',
  'a\u0085b',
  'line\nbreak',
  'line\r\nbreak',
  'tab\there',
  '\u{1F9F9} broom',
  '\ud800',
];
/** Values on the edge of each field's rule, beside the text edges every string field gets. */
export const EDGES: Record<FieldName, unknown[]> = {
  formType: ['quote', 'support', 'Quote', 'SUPPORT', '', null, 1],
  name: ['J', 'x'.repeat(MAX_LENGTH.name), 'x'.repeat(MAX_LENGTH.name + 1), emoji(MAX_LENGTH.name / 2), emoji(MAX_LENGTH.name / 2 + 1)],
  phone: [
    '(503) 555-0142',
    '503.555.0142',
    '+1 503 555 0142',
    '1-503-555-0142',
    '+1 (503) 555-0142',
    ' 5035550142 ',
    '5035550142',
    '503-555-01420',
    '555-0142',
    '(103) 555-0142',
    '(503) 155-0142',
    '+44 20 7946 0958',
    '+15035550142',
    '503--555--0142',
    '(503)5550142',
    '800 555 0142',
    // The +1 plan: the United States' territories are U.S. numbers, its other countries are not.
    '+1 787 555 0134',
    '(939) 555-0134',
    '+1 340 555 0134',
    '+1 671 555 0134',
    '+1 670 555 0134',
    '+1 684 622 1234',
    '+1 684 555 0134',
    '+1 604 555 0134',
    '604-555-0134',
    '+1 242 225 1234',
    '+1 441 555 0134',
    '+1 876 927 1234',
    '+1 600 555 0134',
  ],
  email: ['jane@example.com', ' jane@example.com ', 'jane@example', 'jane@@example.com', 'jane@example..com', 'jané@example.com', 'a@b.co', '@example.com'],
  bedrooms: ['0', '00', '20', '21', '3', ' 3 ', '1.5', '-1', 'not sure', 'Not sure', 'not  sure', ' not sure ', 3],
  bathrooms: ['0.5', '.5', '00.5', '000.5', '1', '1.0', '1.5', '1.50', '20.0', '20.5', '0', '0.0', '01', 'not sure', 2],
  service: ['Standard clean', 'Deep clean', 'Move-out clean, two floors', 'x'.repeat(MAX_LENGTH.service + 1), emoji(MAX_LENGTH.service / 2 + 1)],
  notes: ['', 'x'.repeat(MAX_LENGTH.notes), 'x'.repeat(MAX_LENGTH.notes + 1), '  \n  '],
  communicationsConsent: [true, false, 'true', 1, null],
  consentTimestamp: [
    '2026-11-24T09:03:00Z',
    '2026-11-24T09:03:00-08:00',
    '2026-11-24T09:03:00.123456789Z',
    '2026-11-24t09:03:00z',
    '2026-11-24 09:03:00Z',
    '2026-11-24T09:03:00',
    '2024-02-29T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-11-24T24:00:00Z',
    '2026-11-24T09:03:60Z',
    '2026-11-24T09:03:00+23:59',
    '2026-11-24T09:03:00+24:00',
    '2099-01-01T00:00:00Z',
    new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    `${'2026-11-24T09:03:00.'}${'1'.repeat(30)}Z`,
  ],
  pageUrl: [
    'https://www.example.com/quote',
    'http://example.com:65535',
    'https://example.com:65536/',
    'https://example.com:99999/',
    'https://example.com:/',
    'HTTPS://EXAMPLE.COM/x',
    'https://-a.example.com',
    'https://a-.example.com',
    'https://_a.example.com',
    'https://1.2.3.4/',
    'https://1.2.3.256/',
    'https://example',
    'https://example.com.',
    'https://123',
    'https://[::1]/',
    'ftp://example.com',
    'https://exa mple.com',
    'https://example.com/a b',
    'https://example.com/\u0085',
    'https://user@example.com/',
    'example.com',
  ],
  postalCode: [
    '97201',
    '10001',
    '97201-1234',
    ' 97201 ',
    '9720',
    '972011',
    '97201-123',
    '97201 1234',
    'ABCDE',
    '00000',
    97201,
    '\u0669\u0667\u0662\u0660\u0661',
  ],
  preferredDates: [
    [],
    [day(0)],
    [day(1), day(7), day(30)],
    [day(1), day(1)],
    [day(1), day(2), day(3), day(4)],
    [day(-1)],
    [day(PREFERRED_DATES_DAYS_AHEAD)],
    [day(PREFERRED_DATES_DAYS_AHEAD + 1)],
    ['2026-02-30'],
    ['2028-02-29'],
    ['12/05/2026'],
    [`${day(3)}T10:00:00Z`],
    [3],
    [null],
    [day(2), 5, day(2)],
    day(3),
  ],
  preferredWindow: [
    { from: day(16), to: day(19) },
    { from: day(3), to: day(3) },
    { from: day(0), to: day(14) },
    { from: day(0), to: day(15) },
    { from: day(19), to: day(16) },
    { from: day(-1), to: day(2) },
    { from: day(PREFERRED_DATES_DAYS_AHEAD - 2), to: day(PREFERRED_DATES_DAYS_AHEAD + 1) },
    { from: day(PREFERRED_DATES_DAYS_AHEAD + 1), to: day(PREFERRED_DATES_DAYS_AHEAD + 2) },
    { from: day(-20), to: day(-1) },
    { from: day(2) },
    { from: day(2), to: day(3), days: 2 },
    { from: '2026-02-30', to: day(3) },
    { from: day(2), to: 5 },
    [day(2), day(3)],
    `${day(2)}/${day(3)}`,
  ],
  frequency: ['once', 'weekly', 'every-two-weeks', 'monthly', 'Weekly', 'biweekly', ' once ', ''],
  preferredContact: ['call', 'text', 'email', 'e-mail', 'Call', 'phone', ''],
  allowedContact: [
    ['email'],
    ['call', 'email'],
    ['call', 'text', 'email'],
    [],
    ['email', 'email'],
    ['e-mail'],
    ['call', 'text', 'email', 'call'],
    'email',
    [3],
  ],
  timeOfDay: ['morning', 'afternoon', 'any', 'evening', 'Morning', ' morning ', ''],
  helpWith: ['Rescheduling a visit', 'A question before booking', 'My own topic', 'x'.repeat(MAX_LENGTH.helpWith + 1)],
  message: ['', ' ', 'Hello', 'x'.repeat(MAX_LENGTH.message + 1)],
};
export const OTHER_TYPES = [null, 0, 3.5, true, [], {}, ['Deep clean']];

/** A body with `key` set as JSON would carry it (`__proto__` as an own member). */
export function withMember(body: Body, key: string, value: unknown): Body {
  const out = { ...body };
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

/**
 * Members that are valid alone and may not be together, or only so: a first way to try
 * (`preferredContact`) outside the customer's limits, inside them, and beside limits refused on
 * their own.
 */
export const COMBINATIONS: Body[] = [
  { allowedContact: ['email'], preferredContact: 'text' },
  { allowedContact: ['call', 'email'], preferredContact: 'text' },
  { allowedContact: ['text', 'email'], preferredContact: 'text' },
  { allowedContact: ['email'], preferredContact: 'email' },
  { allowedContact: ['email', 'email'], preferredContact: 'call' },
  { allowedContact: ['e-mail'], preferredContact: 'call' },
  { allowedContact: ['e-mail', 'text'], preferredContact: 'call' },
  { allowedContact: [], preferredContact: 'call' },
  { allowedContact: ['text'], preferredContact: 'phone' },
];

/** Every probe body: each form's fields set to each edge value, another type or left out, members no form has, and the combinations. */
export function probeBodies(bases: Body[]): Body[] {
  const bodies: Body[] = [];
  for (const base of bases) {
    for (const combination of COMBINATIONS) bodies.push({ ...base, ...combination });
    for (const field of FIELDS) {
      const strings = typeof EDGES[field][0] === 'string' ? TEXT_EDGES : [];
      for (const value of [...EDGES[field], ...strings, ...OTHER_TYPES]) bodies.push(withMember(base, field, value));
      const { [field]: _, ...without } = base;
      bodies.push(without);
    }
    for (const key of STRANGERS) bodies.push(withMember(base, key, 'x'));
  }
  return bodies;
}
