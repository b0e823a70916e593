/** The office's page from a test: accounts made with the command as the operator makes them, and a signed-in session over HTTP. */
import { spawn } from 'node:child_process';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { fillQuoteForm, offlinePage } from './browser.ts';
import { newClient } from './fixtures.ts';
import { sentAtOnce } from './form-token.ts';
import { postJson } from './http.ts';
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
 * The inbox's row of the lead `reference` (`li.lead.compact`), opened as the office opens it, by a
 * tap on its line; one already open (the lead just changed) is left open. A light row's whole part
 * comes in place with JavaScript (waited for); without it, its one link opens the lead alone, and the
 * row is that page's.
 */
export async function openLead(page: Page, reference: string): Promise<Locator> {
  // The page whole, its script run (with JavaScript): a tap is then met as a person's is once the page has come.
  await page.waitForLoadState('load');
  const row = page.locator('li.lead.compact', { hasText: reference });
  if (!(await row.locator(':scope > details').evaluate((d) => (d as HTMLDetailsElement).open))) await row.locator(':scope > details > summary').click();
  const later = row.locator('.lead-later');
  if ((await later.count()) === 0) return row;
  if (await page.evaluate(() => document.documentElement.dataset.leadParts === 'on')) {
    // The part in place, or its read failed (the session ended): then the link opens the lead, as without JavaScript.
    // Read by the row's id, never by a handle the part's arrival would leave behind.
    await page.waitForFunction((ref) => {
      const later = document.getElementById(`lead-${ref}`)?.querySelector('.lead-later');
      return !later || later.querySelector('a[data-part-failed]') !== null;
    }, reference);
    if ((await later.count()) === 0) return row;
  }
  await later.getByRole('link', { name: 'Open the whole lead' }).click();
  await page.waitForLoadState('load');
  return page.locator('li.lead.compact', { hasText: reference });
}

/** Signs in on the office page of `base` in `page`, as the office does, and waits for the inbox. */
export async function signInOnPage(page: Page, base: string, who: { email: string; password: string } = STAFF): Promise<void> {
  await page.goto(`${base}/office`);
  await page.getByLabel('E-mail address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Inbox' }).waitFor();
}

/** Stores `body` through the API of `base`, from a client of its own; resolves with its reference. */
export async function sentLead(base: string, body: Record<string, unknown>): Promise<string> {
  const reply = await postJson(`${base}/api/v1/leads`, body, newClient());
  expect(reply.status).toBe(201);
  return (reply.json as { reference: string }).reference;
}

/** Sends the quote form of `server` as a spam program would (JavaScript off), sooner than the fill-time trap allows: it keeps it aside. */
export async function sentTooFast(
  browser: Browser,
  server: { url: string; databaseUrl: string },
  who: { name: string; phone: string; email: string },
): Promise<string> {
  const { context, page } = await offlinePage(browser, server.url, { javaScriptEnabled: false, extraHTTPHeaders: newClient() });
  await page.goto(`${server.url}/quote`);
  await fillQuoteForm(page, who);
  // Filled as a person fills it, then sent with the time set rather than raced: however long a busy machine takes, it is too soon.
  await sentAtOnce(page, server.databaseUrl);
  await page.getByRole('button', { name: 'Send my request' }).click();
  const reference = (await page.locator('.reference').first().textContent())!.trim();
  await context.close();
  return reference;
}

/** Opens the inbox's "Filters" fold as a person taps it, unless it is open already (a filter in use keeps it open). */
export async function showFilters(page: Page): Promise<void> {
  const fold = page.locator('details.more-filters');
  if (!(await fold.evaluate((d) => (d as HTMLDetailsElement).open))) await fold.locator(':scope > summary').click();
}
