/** Lead bodies for tests: example.com addresses and 555-01xx numbers only. */
import type { CallBackPromise } from '../../src/leads/next-step.ts';
import type { ServiceArea } from '../../src/leads/service-area.ts';

let counter = 0;

/** A valid quote request; `n` makes it distinct from others (so it is not a duplicate). */
export function quote(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    name: `Jane Doe ${counter}`,
    phone: '(503) 555-0142',
    email: `jane.doe+${counter}@example.com`,
    bedrooms: '3',
    bathrooms: '2.5',
    service: 'Deep clean',
    notes: `Two cats; please use the side door. (${counter})`,
    communicationsConsent: true,
    consentTimestamp: '2026-11-20T17:03:00Z',
    pageUrl: 'https://www.example-cleaning.com/quote',
    ...overrides,
  };
}

/** A valid contact message, distinct from others. */
export function contact(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    formType: 'support',
    name: `John Roe ${counter}`,
    email: `john.roe+${counter}@example.com`,
    phone: '+1 503 555 0199',
    helpWith: 'Rescheduling a visit',
    message: `Could the cleaning on Friday move to Monday morning? (${counter})`,
    ...overrides,
  };
}

let clientCounter = 0;
/** How the store holds a `quote()` sent to /api/v1/leads: its fields, its phone in E.164 and its consent evidence. */
export const STORED_QUOTE = {
  receivedVia: '/api/v1/leads',
  phoneE164: '+15035550142',
  fields: { bedrooms: '3', communicationsConsent: true },
  consent: { communicationsConsent: true, pageUrl: 'https://www.example-cleaning.com/quote' },
};

/**
 * Headers that make a request come from a client of its own (a fresh /64 of the IPv6 documentation
 * prefix), for a server started with TRUST_PROXY naming loopback: each test gets its own rate-limit budget.
 */
export function newClient(): Record<string, string> {
  clientCounter++;
  return { 'X-Forwarded-For': `2001:db8:${process.pid.toString(16)}:${clientCounter.toString(16)}::1` };
}

/** What a company's forms might offer, for the description's functions called outside a build. */
export function offer() {
  return {
    services: ['Standard clean', 'Deep clean'],
    contactTopics: ['Rescheduling a visit', 'A question before booking'],
    consentText: 'I agree that Example Cleaning Co. may call me, text me and e-mail me about this request.',
  };
}

/** The example company's promise: one working day, Monday to Friday; the phone answered weekdays 8 to 6 and Saturday 9 to 1 (Los Angeles). */
export function promise(): CallBackPromise {
  return {
    companyName: 'Example Cleaning Co.',
    timeZone: 'America/Los_Angeles',
    workingDays: 1,
    on: [1, 2, 3, 4, 5],
    hours: [
      { days: [1, 2, 3, 4, 5], opens: 8 * 60, closes: 18 * 60, words: { days: 'Monday to Friday', opens: '8 am', closes: '6 pm' } },
      { days: [6], opens: 9 * 60, closes: 13 * 60, words: { days: 'Saturday', opens: '9 am', closes: '1 pm' } },
    ],
  };
}

/** The example company's service area: a few ZIP codes of Portland and of Vancouver. */
export function serviceArea(): ServiceArea {
  return {
    towns: [
      { town: 'Portland, Oregon', postalCodes: ['97201', '97202', '97205'] },
      { town: 'Vancouver, Washington', postalCodes: ['98660', '98661'] },
    ],
  };
}

/** The company's facts as the documents state them, for the description's functions called outside a build. */
export function company() {
  return {
    name: 'Example Cleaning Co.',
    phone: '(503) 555-0100',
    email: 'office@example-cleaning.com',
    serviceArea: 'Portland, Oregon and Vancouver, Washington',
    postalCodes: serviceArea().towns.flatMap((t) => t.postalCodes),
    promise: promise(),
  };
}
