/** The quote form's fixed lists, as people read them: the value sent, and its words. */
import { CHOICE_WORDS, dateWords, NOT_SURE } from '../../leads/fields.ts';

/** What a person who does not know picks: sent as the API's one spelling of it. */
const NOT_SURE_CHOICE = { value: NOT_SURE, label: 'Not sure' };

/** Bedrooms: a studio, then 1 to 20, or not sure. */
export const BEDROOM_CHOICES = [
  ...Array.from({ length: 21 }, (_, n) => ({
    value: String(n),
    label: n === 0 ? 'Studio (no separate bedroom)' : n === 1 ? '1 bedroom' : `${n} bedrooms`,
  })),
  NOT_SURE_CHOICE,
];

/** Bathrooms: ½ to 20, in halves, or not sure. */
export const BATHROOM_CHOICES = [
  ...Array.from({ length: 40 }, (_, i) => String((i + 1) / 2)).map((value) => ({
    value,
    label: value === '0.5' ? '½ (toilet and basin only)' : value.replace('.5', '½'),
  })),
  NOT_SURE_CHOICE,
];

/** How often, and how to reach the person first: the API's values, in words. */
const wordsOf = (words: Record<string, string>) => Object.entries(words).map(([value, label]) => ({ value, label }));
export const FREQUENCY_CHOICES = wordsOf(CHOICE_WORDS.frequency);
export const CONTACT_CHOICES = wordsOf(CHOICE_WORDS.preferredContact);

const LISTS: Record<string, ReadonlyArray<{ value: string; label: string }>> = {
  bedrooms: BEDROOM_CHOICES,
  bathrooms: BATHROOM_CHOICES,
  frequency: FREQUENCY_CHOICES,
  preferredContact: CONTACT_CHOICES,
};

/** The words of a value sent in `field`: the list's label where the field is a fixed list, days in words, the value itself otherwise. */
export function shownValue(field: string, value: string): string {
  if (field === 'preferredDates') return value.split(' ').filter(Boolean).map(dateWords).join(', ');
  return LISTS[field]?.find((c) => c.value === value)?.label ?? value;
}
