/**
 * Attempts (issue 55, item 3) in headless Chromium against the built server, on a 390 × 844 phone,
 * with and without JavaScript: one tap on an open lead records a call, text or e-mail that reached
 * nobody (one POST, one audit line), the page comes back at that lead with what was recorded said in
 * words, the lead stays New with no first contact, and its collapsed row shows the last attempt. Only
 * the ways the customer allowed are offered; a way the form does not know is refused in words.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, officePost, openLead, sentLead, signedIn, signInOnPage, STAFF } from '../support/office.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

const PHONE = { width: 390, height: 844 } as const;

describe.skipIf(!chromiumAvailable())('attempts in Chromium on a phone', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  for (const javaScript of [false, true])
    it(`records an attempt in one tap and the lead stays New, its row saying the last attempt (JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      const tag = javaScript ? 'js' : 'nojs';
      const reference = await sentLead(server.url, quote({ name: `Tina Tried ${tag}`, email: `tina.${tag}@example.com`, phone: '(503) 555-0161' }));
      const { context, page } = await offlinePage(browser, server.url, { viewport: PHONE, javaScriptEnabled: javaScript, extraHTTPHeaders: newClient() });
      const posted: string[] = [];
      page.on('request', (r) => r.method() === 'POST' && posted.push(new URL(r.url()).pathname));
      await signInOnPage(page, server.url);
      await page.goto(`${server.url}/office`);
      const row = await openLead(page, reference);
      expect(await row.locator('.row-attempt').count()).toBe(0);
      posted.length = 0;
      await row.getByRole('button', { name: 'Texted, no answer' }).click();
      await page.getByRole('status').waitFor();
      // One tap, one POST, and back at the lead, open, what was recorded said there.
      expect(posted).toEqual(['/office/attempt']);
      expect(new URL(page.url()).hash).toBe(`#lead-${reference}`);
      expect(await page.getByRole('status').innerText()).toContain(`Recorded on ${reference}: tried, nobody answered. It stays New.`);
      const back = page.locator(`#lead-${reference}`);
      // Still New, still waiting: the row keeps its state and its promise; no first contact.
      expect(await back.locator('.tag.state').innerText()).toBe('New');
      expect(await back.locator('.tag.promise').count()).toBe(1);
      expect(await back.innerText()).not.toContain('First contacted');
      // The collapsed row says the last attempt, by whom and how.
      await page.goto(`${server.url}/office`);
      const collapsed = page.locator('li.lead.compact', { hasText: reference });
      expect(await collapsed.locator(':scope > details').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      const attempt = collapsed.locator('summary .row-attempt');
      expect(await attempt.isVisible()).toBe(true);
      expect(await attempt.innerText()).toMatch(new RegExp(`^Tried by text, .+, by ${STAFF.email.replace('.', '\\.')}; nobody answered\\.$`));
      // A second try, by phone: the row says the last, and how many.
      await (await openLead(page, reference)).getByRole('button', { name: 'Called, no answer' }).click();
      await page.getByRole('status').waitFor();
      expect(await page.locator(`#lead-${reference} .row-attempt`).innerText()).toMatch(/^Tried by phone, .+ \(2 tries so far\)\.$/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // In the audit trail, a line each.
      await page.goto(`${server.url}/office/system`);
      const activity = await page.locator('#activity + table').innerText();
      expect(activity).toContain(`Texted ${reference}: no answer.`);
      expect(activity).toContain(`Called ${reference}: no answer.`);
      await context.close();
    });

  it('offers only the ways the customer allowed, and refuses a way it does not know in words', async () => {
    const reference = await sentLead(
      server.url,
      quote({ name: 'Erin E-mail-only', email: 'erin.only@example.com', allowedContact: ['email'], preferredContact: 'email' }),
    );
    const { context, page } = await offlinePage(browser, server.url, { viewport: PHONE, javaScriptEnabled: false, extraHTTPHeaders: newClient() });
    await signInOnPage(page, server.url);
    await page.goto(`${server.url}/office?lead=${reference}`);
    const row = await openLead(page, reference);
    const offered = await row.locator('form.attempt-form button').allInnerTexts();
    expect(offered.map((t) => t.trim())).toEqual(['E-mailed, no answer']);
    await context.close();

    const cookie = await signedIn(server.url);
    const refused = await officePost(server.url, '/office/attempt', { reference, way: 'carrier pigeon', back: '/office' }, cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Choose how you tried');
    const gone = await officePost(server.url, '/office/attempt', { reference: 'Q-ZZZZ-ZZ', way: 'call', back: '/office' }, cookie);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('Nothing was recorded.');
  });
});
