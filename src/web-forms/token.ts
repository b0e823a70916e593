/**
 * The token a web form carries from the page that rendered it to the submission: when the page
 * was rendered (the minimum fill time), the submission's `Idempotency-Key` (a double click or a
 * reload replays instead of storing twice), and the version of the consent disclosure shown.
 * Signed with a key held in the store, so that every instance checks every other's tokens.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** What a form token says. */
export interface FormToken {
  form: 'quote' | 'support';
  renderedAt: number;
  idempotencyKey: string;
  /** The disclosure version shown beside the consent checkbox; `-` when the form has none. */
  disclosureVersion: string;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url').slice(0, 32);

/**
 * A token for a form rendered now; or, for the page that answers a submission, one that keeps the
 * time the person started (`renderedAt`) and, unless the submission used it up, its key.
 */
export function issueFormToken(
  key: Buffer,
  form: FormToken['form'],
  disclosureVersion: string | undefined,
  renderedAt = Date.now(),
  idempotencyKey: string = randomUUID(),
): string {
  const payload = [form, String(renderedAt), idempotencyKey, disclosureVersion ?? '-'].join('.');
  return `${payload}.${mac(key, payload)}`;
}

/** The token's content, or `undefined` when it was not issued with `key` (tampered, or not a token). */
export function readFormToken(key: Buffer, token: string): FormToken | undefined {
  const parts = token.split('.');
  if (parts.length !== 5) return undefined;
  const [form, renderedAt, idempotencyKey, disclosureVersion, signature] = parts as [string, string, string, string, string];
  const expected = Buffer.from(mac(key, parts.slice(0, 4).join('.')));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  if ((form !== 'quote' && form !== 'support') || !/^\d{1,15}$/.test(renderedAt)) return undefined;
  return { form, renderedAt: Number(renderedAt), idempotencyKey, disclosureVersion };
}
