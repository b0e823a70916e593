/**
 * How the office reaches a customer (`reachOf`): a link for exactly the ways they allowed, their first
 * choice first, each way left out said in words, the number in one national format; a first choice
 * outside the limits is not followed, and said so.
 */
import { describe, expect, it } from 'vitest';
import { leadLink } from '../../src/office/lead-link.ts';
import { allowedWays, firstChoiceWords, reachOf } from '../../src/office/reach.ts';

const ANN = { phone: '5035550160', email: 'ann.example@example.com' };
const hrefs = (given: Parameters<typeof reachOf>[0]) => reachOf(given).links.map((l) => l.href);

describe('reaching a customer as they allow', () => {
  it('links all three ways for a customer without limits, in the forms’ order, the number in national format', () => {
    const reach = reachOf(ANN);
    expect(reach.links.map((l) => [l.verb, l.href, l.to, l.first])).toEqual([
      ['Call', 'tel:+15035550160', '(503) 555-0160', false],
      ['Text', 'sms:+15035550160', '(503) 555-0160', false],
      ['E-mail', 'mailto:ann.example@example.com', 'ann.example@example.com', false],
    ]);
    expect(reach.refused).toBe('');
    expect(reach.firstRefused).toBe('');
    expect(reach.phone).toBe('(503) 555-0160');
    // However it was typed, one format.
    for (const typed of ['503.555.0160', '(503) 555-0160', '+1 503 555 0160', '1-503-555-0160']) expect(reachOf({ phone: typed }).phone).toBe('(503) 555-0160');
  });

  it('links e-mail alone for a customer who allowed e-mail only, and says "no calls, no texts"', () => {
    const reach = reachOf({ ...ANN, allowedContact: ['email'], preferredContact: 'email' });
    expect(reach.links.map((l) => l.href)).toEqual(['mailto:ann.example@example.com']);
    expect(reach.links[0]!.first).toBe(true);
    expect(reach.refused).toBe('no calls, no texts');
    expect(reach.firstRefused).toBe('');
  });

  it('puts the first choice first: a texts-only customer’s one link is sms:, and a text chosen first leads the others', () => {
    expect(hrefs({ ...ANN, allowedContact: ['text'] })).toEqual(['sms:+15035550160']);
    expect(reachOf({ ...ANN, allowedContact: ['text'] }).refused).toBe('no calls, no e-mail');
    expect(hrefs({ ...ANN, preferredContact: 'text' })).toEqual(['sms:+15035550160', 'tel:+15035550160', 'mailto:ann.example@example.com']);
    expect(hrefs({ ...ANN, allowedContact: ['email', 'call'], preferredContact: 'email' })).toEqual(['mailto:ann.example@example.com', 'tel:+15035550160']);
  });

  it('lets the limits win over a first choice outside them (a lead stored earlier), and says the choice is not allowed', () => {
    const reach = reachOf({ ...ANN, allowedContact: ['email'], preferredContact: 'call' });
    expect(reach.links.map((l) => [l.href, l.first])).toEqual([['mailto:ann.example@example.com', false]]);
    expect(reach.refused).toBe('no calls, no texts');
    expect(reach.firstRefused).toBe('not allowed: their own limit says no calls');
    expect(firstChoiceWords({ allowedContact: ['email'], preferredContact: 'call' })).toBe('A phone call (not allowed: their own limit says no calls)');
    expect(firstChoiceWords({ allowedContact: ['email', 'text'], preferredContact: 'text' })).toBe('A text message');
    expect(firstChoiceWords({ preferredContact: 'call' })).toBe('A phone call');
    expect(firstChoiceWords({ allowedContact: ['email'] })).toBe('');
  });

  it('reads stored values as they may be: unknown ways left out, an empty or missing list is no limit, no phone or address no link', () => {
    expect(allowedWays(undefined)).toEqual(['call', 'text', 'email']);
    expect(allowedWays([])).toEqual(['call', 'text', 'email']);
    expect(allowedWays(['fax', 'text', 'call'])).toEqual(['call', 'text']);
    expect(allowedWays('email')).toEqual(['email']);
    expect(hrefs({ ...ANN, preferredContact: 'carrier pigeon' })).toEqual(['tel:+15035550160', 'sms:+15035550160', 'mailto:ann.example@example.com']);
    // A number the office cannot dial is shown as typed, and is no link.
    const odd = reachOf({ phone: '555-0160', email: '' });
    expect(odd.links).toEqual([]);
    expect(odd.phone).toBe('555-0160');
    expect(reachOf({}).phone).toBe('');
  });
});

describe('a link to one lead within the list it is followed from', () => {
  it('keeps the search by its handle and the filters, drops the notices of a change, and adds the reference', () => {
    expect(leadLink('/office?search=AbCdEfGhIjKlMnOp&status=new&page=2', 'Q-P7RH-Q4')).toBe(
      '/office?search=AbCdEfGhIjKlMnOp&status=new&page=2&lead=Q-P7RH-Q4#lead-Q-P7RH-Q4',
    );
    expect(leadLink('/office?view=all&changed=Q-AAAA-AA&to=done&lead=Q-AAAA-AA', 'Q-P7RH-Q4', 'caught-heading')).toBe(
      '/office?view=all&lead=Q-P7RH-Q4#caught-heading',
    );
    expect(leadLink('/office', 'Q-P7RH-Q4')).toBe('/office?lead=Q-P7RH-Q4#lead-Q-P7RH-Q4');
    // Words typed in the wrong place, or an address elsewhere, never reach the link.
    expect(leadLink('/office?q=Ann+Example&zip=Ann', 'Q-P7RH-Q4')).not.toMatch(/Ann/);
    expect(leadLink('https://elsewhere.example.com/office', 'Q-P7RH-Q4')).toBe('/office?lead=Q-P7RH-Q4#lead-Q-P7RH-Q4');
  });
});
