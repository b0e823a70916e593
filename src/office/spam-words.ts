/** A caught submission in words, as its compact row in the spam folder says it: why it was caught, and the first words of what was written. */
import { visible } from './inert-text.ts';
import type { SpamReason, SuspectedSpam } from './store.ts';

/** Why a trap caught a submission: in the row (`short`), and in a sentence once it is opened (`long`). */
export const CAUGHT_BECAUSE: Record<SpamReason, { short: string; long: string }> = {
  'hidden field filled in': { short: 'Filled in a hidden field', long: 'It filled in a field that people never see.' },
  'no valid form token': { short: 'Not sent from the form', long: 'It was not sent from the form’s page on this site.' },
  'sent faster than a person fills it in': {
    short: 'Sent too fast',
    long: 'It was sent within seconds of the page opening, faster than a person types.',
  },
};

/** How many characters of what was written a row shows, at most. */
export const FIRST_WORDS_CHARS = 60;

/**
 * The first words of what the sender wrote (a quote's notes, a message), on one line, as inert text,
 * cut at a word within `FIRST_WORDS_CHARS` and marked "…" when there is more; else what they asked
 * for (the service, what the message is about); empty when there is neither.
 */
export function firstWords(spam: Pick<SuspectedSpam, 'formType' | 'body'>): string {
  const text = (name: string) => (typeof spam.body[name] === 'string' ? (spam.body[name] as string).replace(/\s+/g, ' ').trim() : '');
  const wrote = spam.formType === 'quote' ? text('notes') || text('service') : text('message') || text('helpWith');
  if (wrote.length <= FIRST_WORDS_CHARS) return visible(wrote);
  const cut = wrote.slice(0, FIRST_WORDS_CHARS);
  const atWord = cut.lastIndexOf(' ');
  return `${visible((atWord > FIRST_WORDS_CHARS / 2 ? cut.slice(0, atWord) : cut).trimEnd())}…`;
}
