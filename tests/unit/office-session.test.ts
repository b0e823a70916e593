/** The office's session cookie: what the browser is told to keep, and how the token is read back. */
import { describe, expect, it } from 'vitest';
import { sessionCookie, sessionToken } from '../../src/office/session.ts';
import { checkPassword, hashPassword } from '../../src/office/passwords.ts';

describe("the office's session cookie", () => {
  it('is HttpOnly, SameSite=Strict and scoped to /office; Secure only under HTTPS; removed with Max-Age=0', () => {
    expect(sessionCookie('t0k3n', false)).toBe('office_session=t0k3n; Path=/office; HttpOnly; SameSite=Strict');
    expect(sessionCookie('t0k3n', true)).toBe('office_session=t0k3n; Path=/office; HttpOnly; SameSite=Strict; Secure');
    expect(sessionCookie(undefined, true)).toBe('office_session=; Max-Age=0; Path=/office; HttpOnly; SameSite=Strict; Secure');
  });

  it('is read back from among other cookies, and absent when not sent', () => {
    expect(sessionToken('theme=dark; office_session=abc_DEF-123; x=1')).toBe('abc_DEF-123');
    expect(sessionToken('theme=dark')).toBeUndefined();
    expect(sessionToken(null)).toBeUndefined();
  });
});

describe("the office's passwords", () => {
  it('are kept as a salted scrypt hash: two hashes of one password differ, and each checks only that password', async () => {
    const [a, b] = await Promise.all([hashPassword('mop and bucket 2026'), hashPassword('mop and bucket 2026')]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('mop');
    expect(await checkPassword('mop and bucket 2026', a)).toBe(true);
    expect(await checkPassword('mop and bucket 2027', a)).toBe(false);
    expect(await checkPassword('mop and bucket 2026', 'plain text')).toBe(false);
  });
});
