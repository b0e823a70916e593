/** The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header). */
import { Problem } from '../problems/problem.ts';

/** The longest key, counted as the key itself: a quoted string's characters once unescaped. */
export const MAX_KEY_LENGTH = 255;
// The draft defines the value as a structured-field string ("…"); many clients send a bare token
// such as a UUID, which is accepted too: visible ASCII without quotes, commas or spaces. (The
// contents of the character classes, written once for the checks and for the published pattern.)
const IN_QUOTES = '\\x20\\x21\\x23-\\x5B\\x5D-\\x7E';
const IN_TOKEN = '\\x21\\x23-\\x2B\\x2D-\\x7E';
const SF_STRING = new RegExp(`^"((?:[${IN_QUOTES}]|\\\\["\\\\])*)"$`);
const BARE_TOKEN = new RegExp(`^[${IN_TOKEN}]+$`);

/**
 * Every value the parser below accepts, as one JSON Schema pattern (ECMA-262), published in the
 * OpenAPI description: a quoted string of 1 to 255 characters once unescaped (each is a visible
 * ASCII character or a space, or `\"` or `\\`), or a bare token of 1 to 255.
 */
export const IDEMPOTENCY_KEY_PATTERN = `^(?:"(?:[${IN_QUOTES}]|\\\\["\\\\]){1,${MAX_KEY_LENGTH}}"|[${IN_TOKEN}]{1,${MAX_KEY_LENGTH}})$`;
/** The longest header value: a quoted key whose every character is escaped. */
export const MAX_KEY_HEADER_LENGTH = 2 * MAX_KEY_LENGTH + 2;

/** The key of a request, `undefined` without the header; 400 `invalid_idempotency_key` when malformed. */
export function parseIdempotencyKey(header: string | null): string | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  const quoted = SF_STRING.exec(value);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : BARE_TOKEN.test(value) ? value : undefined;
  if (key === undefined || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new Problem(
      'invalid_idempotency_key',
      `The Idempotency-Key header must be a quoted string or a token of 1 to ${MAX_KEY_LENGTH} visible ASCII characters.`,
    );
  }
  return key;
}
