/**
 * How the office's one search box reads what was typed, on the inbox and suspected spam alike: a
 * fragment of a name, an e-mail or a phone number (its digits, in any format), or a reference with
 * or without its dashes, in any case. Accents and letters such as ø and ß are folded, both in what
 * is stored and in what is typed, so "Jose" finds "José" and "Straße" finds "Strasse". The stores
 * keep each lead's folded name, e-mail and phone digits in one column (`searchText`), in an index
 * with the reference: a search reads that narrow index, never the leads' rows, and then only the
 * rows it found.
 */
import type { LeadRecord } from '../leads/lead.ts';
import type { SuspectedSpam } from './store.ts';

/** The longest search kept: longer than any name, e-mail or phone number. */
export const SEARCH_MAX_LENGTH = 200;

/** The shortest fragment of a reference searched anywhere in it (a shorter one, from its start). */
export const REFERENCE_FRAGMENT_MIN = 4;

/** Letters Unicode does not decompose into a base letter and a mark, as a keyboard without them writes them. */
const LETTERS: Record<string, string> = { ø: 'o', đ: 'd', ð: 'd', ł: 'l', ß: 'ss', æ: 'ae', œ: 'oe', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ŀ: 'l' };

/** Text as it is searched: lower case, without accents, with ø, ß, æ and their kin written out. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øđðłßæœþıħŧŀ]/g, (c) => LETTERS[c] ?? c);
}

/**
 * The folded search column of a lead or caught submission: its name, e-mails, phones' digits and
 * reference without dashes, a line each (a caught submission's e-mail and phone as typed and as
 * normalised, which may differ or be missing).
 */
export function searchText(person: { name: unknown; emails: unknown[]; phones: unknown[]; reference?: string }): string {
  const texts = (values: unknown[], as: (text: string) => string) => [
    ...new Set(values.flatMap((value) => (typeof value === 'string' && as(value) !== '' ? [as(value)] : []))),
  ];
  return [
    fold(typeof person.name === 'string' ? person.name : ''),
    texts(person.emails, fold).join(' '),
    texts(person.phones, (p) => p.replace(/\D/g, '')).join(' '),
    (person.reference ?? '').replace(/-/g, '').toLowerCase(),
  ].join('\n');
}

/** What a lead is searched by: its name, its e-mail and phone as normalised, and its reference. */
export const leadSearchFacts = (lead: Pick<LeadRecord, 'fields' | 'emailNormalised' | 'phoneE164' | 'reference'>) => ({
  name: lead.fields.name,
  emails: [lead.emailNormalised],
  phones: [lead.phoneE164],
  reference: lead.reference,
});

/** What a caught submission is searched by: its name, its e-mail and phone as typed and as normalised, and its reference. */
export const spamSearchFacts = (spam: Pick<SuspectedSpam, 'body' | 'reference'>, person: { emailNormalised: string; phoneE164: string }) => ({
  name: spam.body.name,
  emails: [person.emailNormalised, spam.body.email],
  phones: [person.phoneE164, spam.body.phone],
  reference: spam.reference,
});

/** `%` and `_` typed by the office are letters, not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The LIKE patterns a search matches with (`\` escapes); a lead matches when any one does. */
export interface InboxSearch {
  /**
   * Over the folded search column: what was typed, folded; its digits when it is typed as a phone
   * (digits and separators alone) and holds at least three;
   * and, for a reference, what was typed without dashes and spaces (4 signs or more).
   */
  text: string[];
  /** Over the reference as stored: a shorter start of one, such as "Q-P7". */
  referenceStart: string | undefined;
}

export function inboxSearch(search: string | undefined): InboxSearch | undefined {
  const typed = search?.trim() ?? '';
  if (typed === '') return undefined;
  const folded = fold(typed);
  // A phone is typed as digits and separators alone: a reference's or a name's digits ("Q-978R") are no phone.
  const digits = /^[\d\s()+.-]+$/.test(typed) ? typed.replace(/\D/g, '') : '';
  const compact = folded.replace(/[\s-]/g, '');
  const upper = typed.toUpperCase();
  const patterns = [
    `%${escapeLike(folded)}%`,
    ...(digits.length >= 3 ? [`%${digits}%`] : []),
    // References hold only capitals, digits and dashes: anything else cannot match, and is no wildcard.
    ...(compact.length >= REFERENCE_FRAGMENT_MIN && /^[a-z0-9]+$/.test(compact) ? [`%${compact}%`] : []),
  ];
  return {
    text: [...new Set(patterns)],
    referenceStart: /^[A-Z0-9][A-Z0-9-]*$/.test(upper) ? `${upper}%` : undefined,
  };
}
