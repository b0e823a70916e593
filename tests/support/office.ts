/** The office's page from a test: accounts made with the command as the operator makes them, and a signed-in session over HTTP. */
import { spawn } from 'node:child_process';
import type { Locator, Page } from 'playwright-core';
import { childEnv, ROOT } from './server.ts';

/** An account for the tests' office staff (example.com, a passphrase). */
export const STAFF = { email: 'office@example.com', password: 'mop and bucket 2026' } as const;

/**
 * `npm run -s leads -- user add <e-mail>`, the password on standard input as a script gives it;
 * resolves with what it printed. Asynchronous: a test's own proxy in this process keeps relaying meanwhile.
 */
export function addUser(databaseUrl: string, email: string, password: string, args: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'leads', '--', 'user', 'add', email, ...args], {
      cwd: ROOT,
      env: { ...childEnv(), DATABASE_URL: databaseUrl },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`user add failed: ${stderr}`))));
    child.stdin.end(`${password}\n`);
  });
}

/** A form POST of the office's page on `base`, as its browser sends it (same origin), with `cookie` when given. */
export function officePost(base: string, path: string, fields: Record<string, string>, cookie?: string, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base, ...(cookie && { Cookie: cookie }), ...extra },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Signs in on `base` (whose SITE_URL is `base`) and returns the session's `Cookie` header value. */
export async function signedIn(base: string, who: { email: string; password: string } = STAFF, extra: Record<string, string> = {}): Promise<string> {
  const res = await officePost(base, '/office/sign-in', { email: who.email, password: who.password }, undefined, extra);
  const cookie = res.headers.get('set-cookie')?.split(';', 1)[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookie;
}

/**
 * The inbox's row of the lead `reference` (`li.lead.compact`), opened in place as the office opens
 * it, by a tap on its line; one already open (the lead just changed) is left open.
 */
export async function openLead(page: Page, reference: string): Promise<Locator> {
  const row = page.locator('li.lead.compact', { hasText: reference });
  if (!(await row.locator(':scope > details').evaluate((d) => (d as HTMLDetailsElement).open))) await row.locator(':scope > details > summary').click();
  return row;
}
