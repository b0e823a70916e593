/** Lead bodies for tests: example.com addresses and 555-01xx numbers only. */
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

/** The company's facts as the documents state them, for the description's functions called outside a build. */
export function company() {
  return { name: 'Example Cleaning Co.', phone: '(503) 555-0100', serviceArea: 'Portland, Oregon and Vancouver, Washington' };
}
