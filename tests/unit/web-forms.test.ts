/** The web forms' token and same-origin check, on their own. */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { recordListeningPort, siteOrigins } from '../../src/config/site-origins.ts';
import { fieldOf, personMessage } from '../../src/leads/fields.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { isFormSubmission, sameOrigin } from '../../src/http/same-origin.ts';
import { issueFormToken, readFormToken } from '../../src/web-forms/token.ts';
import { typedValue } from '../../src/web-forms/answers.ts';
import { COUNT_LISTS, countProblem, MORE, shownValue } from '../../src/web-forms/choices.ts';
import { quote } from '../support/fixtures.ts';

describe('the form token', () => {
  const key = randomBytes(32);
  it('says when the form was rendered, its key and the disclosure version', () => {
    const token = issueFormToken(key, 'quote', 'c7b63d92277296c1', 1_795_000_000_000);
    expect(readFormToken(key, token)).toMatchObject({
      form: 'quote',
      renderedAt: 1_795_000_000_000,
      disclosureVersion: 'c7b63d92277296c1',
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('is refused when tampered with, or signed with another key', () => {
    const token = issueFormToken(key, 'quote', undefined, 1_795_000_000_000);
    const [form, , id, version, mac] = token.split('.');
    expect(readFormToken(key, [form, '1', id, version, mac].join('.'))).toBeUndefined();
    expect(readFormToken(randomBytes(32), token)).toBeUndefined();
    for (const junk of ['', 'quote', 'a.b.c.d.e', `${token}x`]) expect(readFormToken(key, junk)).toBeUndefined();
  });
});

describe('the same-origin check of a form submission', () => {
  const site = 'https://www.example-cleaning.com';
  const headers = (h: Record<string, string>) => new Headers(h);
  it('applies to POSTs that run a form action', () => {
    expect(isFormSubmission('POST', new URL(`${site}/quote?_action=submitQuote`))).toBe(true);
    expect(isFormSubmission('POST', new URL(`${site}/_actions/submitQuote`))).toBe(true);
    expect(isFormSubmission('GET', new URL(`${site}/quote?_action=submitQuote`))).toBe(false);
    expect(isFormSubmission('POST', new URL(`${site}/quote`))).toBe(false);
  });

  it('accepts this site, scheme and host, as SITE_URL names it, and nothing else', () => {
    expect(sameOrigin(headers({ origin: site }), site)).toBe(true);
    expect(sameOrigin(headers({ referer: `${site}/quote` }), site)).toBe(true);
    expect(sameOrigin(headers({ 'sec-fetch-site': 'same-origin' }), site)).toBe(true);
    // The Host a request names is the sender's choice: an Origin matching it proves nothing.
    expect(sameOrigin(headers({ origin: 'http://127.0.0.1:4455', host: '127.0.0.1:4455' }), site)).toBe(false);
    expect(sameOrigin(headers({ origin: site.replace('https:', 'http:') }), site)).toBe(false);
    expect(sameOrigin(headers({ origin: 'https://evil.example.com' }), site)).toBe(false);
    expect(sameOrigin(headers({ origin: 'null' }), site)).toBe(false);
    expect(sameOrigin(headers({ 'sec-fetch-site': 'cross-site' }), site)).toBe(false);
    expect(sameOrigin(headers({}), site)).toBe(false);
  });
});

describe('the origins the forms accept (siteOrigins)', () => {
  afterEach(() => recordListeningPort(undefined));
  const config = (env: Record<string, string>) => loadConfig({ HOST: '127.0.0.1', ...env });
  it('with SITE_URL set: its origin alone, whatever port is recorded', () => {
    expect(siteOrigins(config({ SITE_URL: 'https://www.example-cleaning.com/' }))).toEqual(['https://www.example-cleaning.com']);
    recordListeningPort(4322);
    expect(siteOrigins(config({ SITE_URL: 'http://localhost:4321', PORT: '4321' }))).toEqual(['http://localhost:4321']);
  });
  it('under npm start with SITE_URL unset: every loopback name at PORT (before the server has recorded its port, as in process)', () => {
    expect(siteOrigins(config({ PORT: '4321' }))).toEqual(['http://localhost:4321', 'http://127.0.0.1:4321', 'http://[::1]:4321']);
    for (const origin of ['http://localhost:4321', 'http://127.0.0.1:4321', 'http://[::1]:4321'])
      expect(sameOrigin(new Headers({ origin }), siteOrigins(config({ PORT: '4321' }))), origin).toBe(true);
    expect(sameOrigin(new Headers({ origin: 'http://127.0.0.1:4322' }), siteOrigins(config({ PORT: '4321' })))).toBe(false);
    expect(sameOrigin(new Headers({ origin: 'http://evil.example.com:4321' }), siteOrigins(config({ PORT: '4321' })))).toBe(false);
  });
  it('with SITE_URL unset, once the server (or npm run dev) has recorded the port it listens on: that port, at every loopback name and HOST', () => {
    recordListeningPort(4322);
    expect(siteOrigins(config({ PORT: '4321' }))).toEqual(['http://localhost:4322', 'http://127.0.0.1:4322', 'http://[::1]:4322']);
    expect(siteOrigins(loadConfig({ HOST: '::1' }))).toEqual(['http://localhost:4322', 'http://127.0.0.1:4322', 'http://[::1]:4322']);
    // Every loopback name, whichever HOST names: an editor may open the page at any of them.
    for (const host of ['localhost', '127.0.0.1', '::1'])
      for (const origin of ['http://localhost:4322', 'http://127.0.0.1:4322', 'http://[::1]:4322'])
        expect(sameOrigin(new Headers({ origin }), siteOrigins(loadConfig({ HOST: host }))), `${origin} under HOST=${host}`).toBe(true);
    expect(sameOrigin(new Headers({ origin: 'http://localhost:4321' }), siteOrigins(config({ PORT: '4321' })))).toBe(false);
    expect(sameOrigin(new Headers({ origin: 'http://127.0.0.1:4322' }), siteOrigins(config({ PORT: '4321' })))).toBe(true);
  });
});

describe('field messages for people', () => {
  it("come from the same rules as the API's errors", () => {
    const v = validateLead(quote({ phone: '12', bedrooms: undefined, notes: 'x'.repeat(5001) }));
    if (v.ok) throw new Error('expected errors');
    const byField = Object.fromEntries(v.errors.map((e) => [fieldOf(e), { api: e.detail, person: personMessage(e, { maxLength: 5000, length: 5001 }) }]));
    expect(byField.phone).toEqual({
      api: 'phone must be a 10-digit U.S. phone number with an area code in service, as a string such as "(503) 555-0142"',
      person: 'Enter a 10-digit U.S. phone number, such as (503) 555-0142.',
    });
    expect(byField.bedrooms!.person).toBe('Choose the number of bedrooms.');
    expect(byField.notes!.person).toBe('This is too long. The most is 5,000 characters, and this is 5,001. Please shorten it: nothing was cut.');
  });
});

describe('counts as large choices', () => {
  const sent = (entries: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(entries)) data.set(name, value);
    return data;
  };

  it('send a listed choice as it is, and "5+" as the count typed in its box', () => {
    expect(typedValue('bedrooms', sent({ bedrooms: '3', bedroomsMore: '9' }))).toBe('3');
    expect(typedValue('bedrooms', sent({ bedrooms: MORE, bedroomsMore: ' 7 ' }))).toBe('7');
    expect(typedValue('bathrooms', sent({ bathrooms: MORE, bathroomsMore: '5.5' }))).toBe('5.5');
    expect(typedValue('bathrooms', sent({ bathrooms: MORE }))).toBe(MORE);
    expect(typedValue('bedrooms', sent({ bedrooms: 'not sure' }))).toBe('not sure');
  });

  it('every listed choice is a value the API takes', () => {
    for (const [field, list] of Object.entries(COUNT_LISTS))
      for (const { value } of list.choices.filter((c) => c.value !== MORE))
        expect(validateLead(quote({ [field]: value })), `${field} ${value}`).toMatchObject({ ok: true });
  });

  it('say to type the count when "5+" was chosen without one, or with one the API refuses; the API says the rest', () => {
    expect(countProblem('bedrooms', MORE)).toBe('Type the number of bedrooms, from 5 to 20.');
    expect(countProblem('bathrooms', '25')).toBe('Type the number of bathrooms, from 5 to 20, such as 5 or 5.5.');
    for (const [field, value] of [
      ['bedrooms', ''],
      ['bedrooms', '3'],
      ['bathrooms', 'not sure'],
      ['service', 'x'],
    ])
      expect(countProblem(field!, value!), `${field} ${value}`).toBeUndefined();
  });

  it('are said in words on the page that confirms the request', () => {
    expect(['0', '1', '7', 'not sure'].map((v) => shownValue('bedrooms', v))).toEqual(['Studio', '1 bedroom', '7 bedrooms', 'Not sure']);
    expect(['0.5', '1', '2.5', '5.5', '20'].map((v) => shownValue('bathrooms', v))).toEqual(['½', '1', '2½', '5½', '20']);
  });
});
