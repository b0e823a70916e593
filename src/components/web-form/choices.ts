/** The quote form's fixed lists, as people read them: the value sent, and its words. */

/** Bedrooms: a studio, then 1 to 20. */
export const BEDROOM_CHOICES = Array.from({ length: 21 }, (_, n) => ({
  value: String(n),
  label: n === 0 ? 'Studio (no separate bedroom)' : n === 1 ? '1 bedroom' : `${n} bedrooms`,
}));

/** Bathrooms: ½ to 20, in halves. */
export const BATHROOM_CHOICES = Array.from({ length: 40 }, (_, i) => String((i + 1) / 2)).map((value) => ({
  value,
  label: value === '0.5' ? '½ (toilet and basin only)' : value.replace('.5', '½'),
}));

/** The words of a value sent in `field`: the list's label where the field is a fixed list, the value itself otherwise. */
export function shownValue(field: string, value: string): string {
  const list = field === 'bedrooms' ? BEDROOM_CHOICES : field === 'bathrooms' ? BATHROOM_CHOICES : undefined;
  return list?.find((c) => c.value === value)?.label ?? value;
}
