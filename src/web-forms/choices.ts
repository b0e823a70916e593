/**
 * The quote form's fixed lists, as people read them: the value sent, and its words. Bedrooms and
 * bathrooms are a few large choices for a thumb; "5+" (`MORE`) opens a box for the exact count,
 * so the form still sends a number the API accepts. Pure: the page and `enhance.ts` share it.
 */
import { CHOICE_WORDS, dateWords, NOT_SURE, windowWords } from '../leads/fields.ts';

/** Each way we may reach a person, as its box says it. */
const WAY_WORDS = { call: 'Phone calls', text: 'Text messages', email: 'E-mail' } as const satisfies Record<'call' | 'text' | 'email', string>;

/** What a person who does not know picks: sent as the API's one spelling of it. */
const NOT_SURE_CHOICE = { value: NOT_SURE, label: 'Not sure' };

/** The choice that opens the box for a count past the listed ones (its value is never sent to the API). */
export const MORE = 'more';

/** A choice of a count: the value sent, its words, and the words of any count typed in the box. */
export interface CountList {
  choices: ReadonlyArray<{ value: string; label: string }>;
  /** The words of a count, listed or typed ("3 bedrooms", "2½"). */
  words: (value: string) => string;
  /** The box's label, its smallest and largest count, and its step. */
  more: { label: string; min: number; max: number; step: number };
}

/** A count in halves, as people write it: "2½", "½", "3". */
const halves = (value: string) => {
  const n = Number(value);
  return `${Math.floor(n) || (n % 1 ? '' : '0')}${n % 1 ? '½' : ''}`;
};
const bedroomWords = (value: string) => (value === '0' ? 'Studio' : value === '1' ? '1 bedroom' : `${Number(value)} bedrooms`);

/** The short words on a choice ("Studio", "2½"); `words` says it in full where it stands alone. */
const chipWords = (value: string) => (value === '0' ? 'Studio' : halves(value));

const countList = (values: string[], words: (value: string) => string, more: CountList['more']): CountList => ({
  choices: [...values.map((value) => ({ value, label: chipWords(value) })), { value: MORE, label: `${more.min}+` }, NOT_SURE_CHOICE],
  words: (value) => (value === NOT_SURE ? NOT_SURE_CHOICE.label : value === MORE ? `${more.min}+` : words(value)),
  more,
});

/** Bedrooms: a studio, 1 to 4, 5 or more (up to 20, as the API takes), or not sure. */
export const BEDROOMS = countList(['0', '1', '2', '3', '4'], bedroomWords, { label: 'How many bedrooms?', min: 5, max: 20, step: 1 });

/** Bathrooms: 1 to 4½ in halves, 5 or more (up to 20, in halves), or not sure; a half is a toilet and basin only. */
export const BATHROOMS = countList(['1', '1.5', '2', '2.5', '3', '3.5', '4', '4.5'], halves, {
  label: 'How many bathrooms?',
  min: 5,
  max: 20,
  step: 0.5,
});

export const COUNT_LISTS: Record<string, CountList> = { bedrooms: BEDROOMS, bathrooms: BATHROOMS };

/** What a person reads when the count typed past the listed choices is missing or not one the API takes. */
export function countProblem(field: string, value: string): string | undefined {
  const list = COUNT_LISTS[field];
  // Nothing chosen, or a listed choice: the API's own words say it.
  if (!list || value === '' || list.choices.some((c) => c.value === value && c.value !== MORE)) return undefined;
  const { min, max, step } = list.more;
  return `Type the number of ${field}, from ${min} to ${max}${step < 1 ? ', such as 5 or 5.5' : ''}.`;
}

/** How often, how to reach the person first and the time of day: the API's values, in words. */
const wordsOf = (words: Record<string, string>) => Object.entries(words).map(([value, label]) => ({ value, label }));
export const FREQUENCY_CHOICES = wordsOf(CHOICE_WORDS.frequency);
export const CONTACT_CHOICES = wordsOf(CHOICE_WORDS.preferredContact);
export const TIME_CHOICES = wordsOf(CHOICE_WORDS.timeOfDay);
/** The ways we may reach a person, one box each (`allowedContact`). */
export const WAY_CHOICES = wordsOf(WAY_WORDS);

const LISTS: Record<string, ReadonlyArray<{ value: string; label: string }>> = {
  frequency: FREQUENCY_CHOICES,
  preferredContact: CONTACT_CHOICES,
  timeOfDay: TIME_CHOICES,
};

/** The words of a value sent in `field`: a count in words, a list's label, days in words, the value itself otherwise. */
export function shownValue(field: string, value: string): string {
  if (value === '') return '';
  if (field === 'preferredDates') return value.split(' ').filter(Boolean).map(dateWords).join(', ');
  if (field === 'preferredWindow') {
    const [from = '', to = ''] = value.split('/');
    return from && to ? windowWords(from, to) : value;
  }
  if (field === 'allowedContact')
    return value
      .split(' ')
      .filter(Boolean)
      .map((w) => WAY_CHOICES.find((c) => c.value === w)?.label ?? w)
      .join(', ');
  if (COUNT_LISTS[field]) return COUNT_LISTS[field].words(value);
  return LISTS[field]?.find((c) => c.value === value)?.label ?? value;
}
