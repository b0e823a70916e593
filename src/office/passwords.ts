/**
 * The office's passwords, kept only as a slow, salted hash: scrypt from Node's crypto (OpenSSL's),
 * with a random 16-byte salt per password and the cost written beside the hash, so that a later,
 * dearer cost still checks the passwords hashed before it.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** About 50–100 ms and 32 MiB per hash on a small server: cheap for a sign-in, dear for a guesser. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

/** The shortest password the operator may set: a passphrase of a few words is longer. */
export const MIN_PASSWORD_LENGTH = 12;

const derive = (password: string, salt: Buffer, cost: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64; `cost` is the service's own unless a test asks for a cheaper one. */
export async function hashPassword(password: string, cost: { N: number; r: number; p: number } = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` is the one `stored` was made from; a malformed `stored` matches nothing. */
export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) }).catch(() => undefined);
  return key !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a password nobody has: checked when the e-mail has no account, so that both answers take as long. */
let nobody: Promise<string> | undefined;
export const nobodysHash = (): Promise<string> => (nobody ??= hashPassword(randomBytes(24).toString('base64')));
