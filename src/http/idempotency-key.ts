/** The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header). */
import { Problem } from '../problems/problem.ts';

const MAX_KEY_LENGTH = 255;
// The draft defines the value as a structured-field string ("…"); many clients send a bare token
// such as a UUID, which is accepted too: visible ASCII without quotes, commas or spaces.
const SF_STRING = /^"((?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])*)"$/;
const BARE_TOKEN = /^[\x21\x23-\x2B\x2D-\x7E]+$/;

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
