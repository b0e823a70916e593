/** How the inbox's one search box reads what the office typed: part of a name, an e-mail, a phone's digits or a reference. */

/** The longest search kept: longer than any name, e-mail or phone number. */
export const SEARCH_MAX_LENGTH = 200;

/** `%` and `_` typed by the office are letters, not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The LIKE patterns a search matches with (case-insensitive text; a reference from its start; digits inside a phone). */
export interface InboxSearch {
  text: string;
  /** Only when the search holds a letter or digit a reference could start with. */
  reference: string | undefined;
  /** Only when the search holds at least three digits: "503" finds a phone, "2" finds nothing by phone. */
  digits: string | undefined;
}

export function inboxSearch(search: string | undefined): InboxSearch | undefined {
  const typed = search?.trim() ?? '';
  if (typed === '') return undefined;
  const digits = typed.replace(/\D/g, '');
  const reference = typed.toUpperCase().replace(/[^A-Z0-9-]/g, '');
  return {
    text: `%${escapeLike(typed.toLowerCase())}%`,
    // References hold only capitals, digits and dashes: anything else cannot match, and is no wildcard.
    reference: /[A-Z0-9]/.test(reference) ? `${reference}%` : undefined,
    digits: digits.length >= 3 ? `%${digits}%` : undefined,
  };
}
