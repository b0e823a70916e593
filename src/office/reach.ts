/**
 * How the office reaches one customer, as they allow: a one-tap link (`tel:` to call, `sms:` to
 * text, `mailto:` to e-mail) for each way their limits (`allowedContact`) let the office use, the
 * one they chose first (`preferredContact`) first, the rest in the forms' order (call, text,
 * e-mail); each way they left out is no link and is said in words ("no calls, no texts"). A lead
 * without limits allows all three. A first choice outside the limits (a lead stored before the
 * forms checked the two together) is not followed: the limits win, and the first choice is said
 * to be not allowed. The phone number is shown in one national format ("(503) 555-0160").
 * Pure: the inbox's rows and the office's e-mail both use it.
 */
import { CONTACT_WAYS } from '../leads/fields.ts';
import type { ContactWay } from '../leads/contact-ways.ts';
import { formatUsPhone, toE164UsPhone } from '../leads/phone.ts';
import { choiceWords, textList } from './lead-words.ts';

/** One way the office may reach the customer, as a link. */
export interface ReachLink {
  way: ContactWay;
  /** `tel:+15035550160`, `sms:+15035550160`, `mailto:ann@example.com`. */
  href: string;
  /** What the link says: "Call", "Text", "E-mail". */
  verb: string;
  /** Whom it reaches, in words: the number in national format, or the address. */
  to: string;
  /** Whether it is the way the customer chose first. */
  first: boolean;
}

/** How to reach one customer, as they allow. */
export interface Reach {
  /** The ways allowed that can be followed, the first choice first. */
  links: ReachLink[];
  /** The ways the customer left out, in words: "no calls, no texts"; empty when they left none out. */
  refused: string;
  /** Why their first choice is not followed, when their limits leave it out: "not allowed: their own limit says no calls"; empty otherwise. */
  firstRefused: string;
  /** The phone number in national format ("(503) 555-0160"); as typed when it is not a number the office can dial; empty without one. */
  phone: string;
}

const VERBS: Readonly<Record<ContactWay, string>> = { call: 'Call', text: 'Text', email: 'E-mail' };
const REFUSED: Readonly<Record<ContactWay, string>> = { call: 'no calls', text: 'no texts', email: 'no e-mail' };

const isWay = (value: unknown): value is ContactWay => (CONTACT_WAYS as readonly unknown[]).includes(value);
const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The ways the customer allows: each way named in `allowedContact` (anything else left out); all three
 * when it names none (a lead without limits, or one stored before they were asked).
 */
export function allowedWays(allowedContact: unknown): ContactWay[] {
  const named = textList(allowedContact);
  if (named.length === 0) return [...CONTACT_WAYS];
  return CONTACT_WAYS.filter((w) => named.includes(w));
}

/**
 * How to reach the customer whose fields are `given` (as the lead stores them: the phone and e-mail
 * as typed, their limits and their first choice).
 */
export function reachOf(given: { phone?: unknown; email?: unknown; allowedContact?: unknown; preferredContact?: unknown }): Reach {
  const typedPhone = trimmed(given.phone);
  const e164 = typedPhone ? toE164UsPhone(typedPhone) : undefined;
  const phone = e164 ? formatUsPhone(e164) : typedPhone;
  const email = trimmed(given.email);
  const allowed = allowedWays(given.allowedContact);
  const preferred = trimmed(given.preferredContact);
  const first = isWay(preferred) && allowed.includes(preferred) ? preferred : undefined;
  const target = (way: ContactWay): Omit<ReachLink, 'way' | 'verb' | 'first'> | undefined => {
    if (way === 'email') return email ? { href: `mailto:${email}`, to: email } : undefined;
    return e164 ? { href: `${way === 'call' ? 'tel' : 'sms'}:${e164}`, to: phone } : undefined;
  };
  const links = [...(first ? [first] : []), ...allowed.filter((w) => w !== first)].flatMap((way) => {
    const to = target(way);
    return to ? [{ way, verb: VERBS[way], first: way === first, ...to }] : [];
  });
  const left = CONTACT_WAYS.filter((w) => !allowed.includes(w));
  const firstRefused = isWay(preferred) && !allowed.includes(preferred) ? `not allowed: their own limit says ${REFUSED[preferred]}` : '';
  return { links, refused: left.map((w) => REFUSED[w]).join(', '), firstRefused, phone };
}

/**
 * Their first choice (`preferredContact`) in words, "A text message"; one their limits leave out
 * says so: "A phone call (not allowed: their own limit says no calls)". Empty without one.
 */
export function firstChoiceWords(given: { allowedContact?: unknown; preferredContact?: unknown }): string {
  const preferred = trimmed(given.preferredContact);
  if (!preferred) return '';
  const { firstRefused } = reachOf(given);
  return `${choiceWords('preferredContact', preferred)}${firstRefused ? ` (${firstRefused})` : ''}`;
}
