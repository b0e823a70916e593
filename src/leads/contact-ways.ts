/**
 * The ways a customer lets the office reach them (`allowedContact`), in the words of the consent
 * they agree to and of the answer they are given. Pure: the quote page's script shares it, so that
 * the sentence beside the consent box follows the ways ticked, as the lead then keeps it.
 */
import { CONTACT_WAYS } from './fields.ts';

/** One way of reaching a customer. */
export type ContactWay = (typeof CONTACT_WAYS)[number];

/** Where the ways go in the editors' consent text (`content/forms/quote.mdx`). */
export const WAYS_PLACEHOLDER = '{ways}';

/** The ways as the consent says them when a page cannot follow the ticks (no JavaScript), or none is ticked. */
export const WAYS_TICKED_ABOVE = 'contact me in the ways ticked above';

const isWay = (w: unknown): w is ContactWay => (CONTACT_WAYS as readonly unknown[]).includes(w);

/** The ways sent, each once, in the order of `CONTACT_WAYS` (call, text, e-mail); anything else left out. */
export const inWayOrder = (ways: readonly unknown[]): ContactWay[] => CONTACT_WAYS.filter((w) => ways.some((x) => x === w && isWay(x)));

/** The ways a consent agrees to: the customer's limits, else all three. */
export const agreedWays = (allowed: readonly ContactWay[] | undefined): ContactWay[] => (allowed ? inWayOrder(allowed) : [...CONTACT_WAYS]);

/** "a, b and c" (the consent's own style, without a comma before "and"). */
const joined = (items: readonly string[], word: 'and' | 'or') =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;

const CONSENT_VERBS: Record<ContactWay, string> = { call: 'call me', text: 'text me', email: 'e-mail me' };

/** The ways in the consent's words: "call me, text me and e-mail me"; none: "contact me in the ways ticked above". */
export function consentWays(ways: readonly unknown[] | undefined): string {
  const chosen = ways === undefined ? [...CONTACT_WAYS] : inWayOrder(ways);
  return chosen.length === 0
    ? WAYS_TICKED_ABOVE
    : joined(
        chosen.map((w) => CONSENT_VERBS[w]),
        'and',
      );
}

/**
 * The consent as the customer reads it: `template` (the editors' text, the company named) with its
 * ways; `ways` undefined means all three (a consent without limits), `'ticked'` the words of a page
 * that cannot follow the ticks.
 */
export const consentSentence = (template: string, ways: readonly unknown[] | undefined | 'ticked') =>
  template.replaceAll(WAYS_PLACEHOLDER, ways === 'ticked' ? WAYS_TICKED_ABOVE : consentWays(ways));

const ANSWER_WAYS: Record<ContactWay, string> = { call: 'phone', text: 'text', email: 'e-mail' };

/**
 * The customer's own limits, as the answer they are given repeats them: "by text or e-mail, as you
 * asked"; "by e-mail only, as you asked"; empty when they allowed every way (or sent no limit), so
 * that the answer never names a way the office has not chosen.
 */
export function askedWays(ways: readonly unknown[] | undefined): string {
  const chosen = ways === undefined ? [] : inWayOrder(ways);
  if (chosen.length === 0 || chosen.length === CONTACT_WAYS.length) return '';
  return `by ${joined(
    chosen.map((w) => ANSWER_WAYS[w]),
    'or',
  )}${chosen.length === 1 ? ' only' : ''}, as you asked`;
}
