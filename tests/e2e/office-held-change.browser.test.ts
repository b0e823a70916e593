/**
 * No lost work, in headless Chromium against the built server on the embedded store: a change made
 * on the office page after the session ended (an hour without use) is held through the sign-in and
 * shown again for one tap; it is never made on its own, and never dropped without a word. With
 * and without JavaScript, on a 390 px phone.
 */
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src/leads/retention.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { postJson } from '../support/http.ts';
import { addUser, officePost, openLead, STAFF } from '../support/office.ts';

/** A second member of the office, who may sign in on the same computer. */
const COLLEAGUE = { email: 'colleague@example.com', password: 'broom and dustpan 2026' } as const;

describe.skipIf(!chromiumAvailable())('a change made after the session ended, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    await addUser(server.databaseUrl, COLLEAGUE.email, COLLEAGUE.password, ['--role', 'staff']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const phone = (javaScript: boolean) =>
    offlinePage(browser, server.url, { viewport: { width: 390, height: 844 }, javaScriptEnabled: javaScript, extraHTTPHeaders: newClient() });

  /** The store's own file, read and written as the server's would be by its own clock. */
  const sql = <T>(statement: string, ...params: string[]) => {
    const db = new DatabaseSync(server.databaseUrl.replace(/^file:/, ''));
    try {
      return db.prepare(statement).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  /** Every session last used more than an hour ago: ended, as an hour without use ends it. */
  const idleAnHour = () => sql('UPDATE office_sessions SET last_seen_at = ?', new Date(Date.now() - SESSION_IDLE_MS - 60_000).toISOString());
  const statusOf = (reference: string) => sql<{ status: string }>('SELECT status FROM leads WHERE reference = ?', reference)[0]?.status;
  const notesOf = (reference: string) =>
    sql<{ text: string }>('SELECT text FROM lead_notes WHERE lead_id = (SELECT id FROM leads WHERE reference = ?)', reference).map((n) => n.text);

  async function sent(name: string): Promise<string> {
    const reply = await postJson(`${server.url}/api/v1/leads`, quote({ name, phone: '(503) 555-0187', email: 'held.change@example.com' }), newClient());
    expect(reply.status).toBe(201);
    return (reply.json as { reference: string }).reference;
  }

  async function signIn(page: Page) {
    await page.getByLabel('E-mail address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  for (const javaScript of [false, true]) {
    it(`holds a status change through the sign-in and makes it with one tap, JavaScript ${javaScript ? 'on' : 'off'}, at 390 px`, async () => {
      const reference = await sent(`Hattie Held ${javaScript ? 'B' : 'A'}`);
      const { context, page } = await phone(javaScript);
      await page.goto(`${server.url}/office`);
      await signIn(page);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      // The lead opened while signed in; the session ends before the change is sent (a lunch break).
      const card = await openLead(page, reference);
      idleAnHour();
      await card.getByLabel('Status').selectOption('contacted');
      await card.getByRole('button', { name: 'Save' }).click();
      // Signed out: told so, and that the change is kept, not made.
      expect(new URL(page.url()).pathname).toBe('/office/sign-in');
      expect(await page.getByRole('status').innerText()).toContain('your change has not been made yet. It is kept for 15 minutes');
      expect(statusOf(reference)).toBe('new');

      await signIn(page);
      await page.getByRole('heading', { name: 'Your change' }).waitFor();
      expect(await page.locator('main').innerText()).toContain(`Mark ${reference} as “Contacted”.`);
      // Signing in made nothing: the change waits for its tap.
      expect(statusOf(reference)).toBe('new');
      await page.getByRole('button', { name: 'Make this change' }).click();
      expect(await page.getByRole('status').innerText()).toContain(`Saved: ${reference} is now contacted.`);
      expect(statusOf(reference)).toBe('contacted');
      // Shown once: coming back finds nothing waiting, and makes nothing again.
      await page.goto(`${server.url}/office/held`);
      expect(await page.locator('main').innerText()).toContain('No change is waiting here');
      // It fits the phone: nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await context.close();
    });
  }

  it('keeps a note written while the session ended, and leaving it changes nothing', async () => {
    const reference = await sent('Hattie Held C');
    const { context, page } = await phone(false);
    await page.goto(`${server.url}/office`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // The lead opened while signed in; the session ends before the change is sent (a lunch break).
    const card = await openLead(page, reference);
    idleAnHour();
    await card.getByLabel(/^Note of the call/).fill('Called, no answer; try tomorrow after 10.');
    await card.getByRole('button', { name: 'Save' }).click();
    await signIn(page);
    expect(await page.locator('.held-change').innerText()).toBe(`Add this note to ${reference}: “Called, no answer; try tomorrow after 10.”`);
    await page.getByRole('link', { name: 'Leave it, and go to the inbox' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(notesOf(reference)).toEqual([]);
    await context.close();
  });

  it('holds nothing sent from another site or without a session that was, and shows a held change to its own account alone', async () => {
    const forged = await officePost(server.url, '/office/status', { reference: 'Q-3333-33', status: 'done' }, undefined, {
      Origin: 'https://attacker.example',
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('set-cookie')).toBeNull();
    // Without the cookie of a session that was, nothing is held (a script cannot fill the store), and the page says so.
    const anonymous = await officePost(server.url, '/office/status', { reference: 'Q-3333-33', status: 'done' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/office/sign-in?not-held');
    expect(anonymous.headers.get('set-cookie')).toBeNull();

    // Held for the browser that sent it, under a cookie only it has (HttpOnly, SameSite=Strict), for the account whose session ended.
    const reference = await sent('Hattie Held D');
    const { context, page } = await phone(false);
    await page.goto(`${server.url}/office`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // The lead opened while signed in; the session ends before the change is sent (a lunch break).
    const card = await openLead(page, reference);
    idleAnHour();
    await card.getByLabel('Status').selectOption('done');
    const [held] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/office/work')), card.getByRole('button', { name: 'Save' }).click()]);
    expect(await held.headerValue('set-cookie')).toMatch(/^office_held=[A-Za-z0-9_-]{32}; Max-Age=900; Path=\/office; HttpOnly; SameSite=Strict$/);
    // A colleague who signs in on that browser is not shown it, and it is gone: nothing of it was changed.
    await page.getByLabel('E-mail address').fill(COLLEAGUE.email);
    await page.getByLabel('Password').fill(COLLEAGUE.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your change' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('No change is waiting here for you');
    expect(statusOf(reference)).toBe('new');
    await context.close();
  });
});
