/**
 * A lead's short reference: what a customer reads out on a call and the office types into a search,
 * such as `Q-7K3M-2P` for a quote request or `C-4HXR-9D` for a contact message. The id stays the
 * lead's stable identifier; the reference is for people.
 */
import { randomInt } from 'node:crypto';
import type { FormType } from './schema.ts';

/**
 * Digits and capital letters that cannot be taken for one another when read aloud or copied by
 * hand: no 0/O, 1/I/L, U/V, 5/S or 2/Z pairs. 25 signs, six of them: 244 million references of
 * each form.
 */
export const REFERENCE_ALPHABET = '346789ABCDEFGHJKMNPQRTWXY';

const PREFIX = { quote: 'Q', support: 'C' } as const satisfies Record<FormType, string>;
const SIGNS = 6;

/** Every reference, as a pattern: the form's letter, four signs, two signs. */
export const REFERENCE_PATTERN = new RegExp(`^[${Object.values(PREFIX).join('')}]-[${REFERENCE_ALPHABET}]{4}-[${REFERENCE_ALPHABET}]{2}$`);

const write = (form: FormType, signs: string) => `${PREFIX[form]}-${signs.slice(0, 4)}-${signs.slice(4)}`;

/** Whether `text` is a reference of a lead of `form` (as a confirmation's address carries it). */
export const isReferenceOf = (form: FormType, text: string) => REFERENCE_PATTERN.test(text) && text.startsWith(`${PREFIX[form]}-`);

/** A fresh random reference for a lead of `form`; the store makes sure no other lead has it. */
export function newReference(form: FormType): string {
  let signs = '';
  for (let i = 0; i < SIGNS; i++) signs += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return write(form, signs);
}
