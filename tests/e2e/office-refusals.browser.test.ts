/**
 * Nothing out of sight, and no dead end, in headless Chromium against the built server on the
 * embedded store: the office's menu says how many caught submissions wait in suspected spam on every
 * page, with and without JavaScript; and a member of staff who opens an owner's page from a bookmark
 * gets a page in the office's look (its header and stylesheet, nothing the policy refuses) that says
 * why in words and leads back to the inbox, on a 390 px phone; so does one who changes a lead's form by
 * hand to let go of a colleague's lead, and nothing of that form is saved.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, officePost, openLead, sentLead, signedIn, STAFF, sentTooFast, signInOnPage } from '../support/office.ts';

/** Where the pictures a reviewer looks at are written (not the guides' pictures). */
const PICTURES = process.env.OFFICE_PICTURES_DIR;

describe.skipIf(!chromiumAvailable())("the office's count of suspected spam and its refusal pages in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  const helper = { email: 'helper@example.com', password: 'a helper passphrase 1' };
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    await addUser(server.databaseUrl, helper.email, helper.password, ['--role', 'staff']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const visitor = (options: { width?: number; javaScript?: boolean } = {}) =>
    offlinePage(browser, server.url, {
      viewport: { width: options.width ?? 1024, height: 900 },
      javaScriptEnabled: options.javaScript ?? true,
      extraHTTPHeaders: newClient(),
    });

  /** What the page's Content-Security-Policy refused, as Chromium reports it. */
  const refusedByPolicy = (page: Page) => {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    return refused;
  };

  it('shows in the menu of every office page how many caught submissions wait, with and without JavaScript', async () => {
    for (let i = 1; i <= 3; i++)
      await sentTooFast(browser, server, { name: `Caught Customer ${i}`, phone: `(503) 555-017${i}`, email: `caught.${i}@example.com` });
    for (const options of [
      { javaScript: false, width: 390 },
      { javaScript: true, width: 1024 },
    ]) {
      const { context, page } = await visitor(options);
      await signInOnPage(page, server.url, options.javaScript ? STAFF : helper);
      for (const path of ['/office', '/office/spam', '/office/no-such-page']) {
        await page.goto(`${server.url}${path}`);
        const menu = page.getByRole('navigation', { name: 'Office' });
        // Seen as "Suspected spam (3)"; read as "Suspected spam (3) waiting for review".
        const link = menu.getByRole('link', { name: /^Suspected spam \(3\)\s*waiting for review$/ });
        expect(await link.count(), `${path}: ${await menu.innerText()}`).toBe(1);
        const seen = await link.evaluate((a) =>
          [...a.childNodes].filter((n) => !(n instanceof Element && n.matches('.visually-hidden'))).map((n) => n.textContent),
        );
        expect(seen.join('').replace(/\s+/g, ' ').trim(), path).toBe('Suspected spam (3)');
      }
      // Among the inbox's counts too, a link to them.
      await page.goto(`${server.url}/office`);
      await page.getByRole('navigation', { name: 'Leads by status' }).getByRole('link', { name: '3 waiting in suspected spam' }).click();
      expect(await page.getByText('3 submissions wait for review, newest first.').count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.width);
      if (PICTURES && !options.javaScript) await page.screenshot({ path: `${PICTURES}/office-menu-spam-count-390.png` });
      await context.close();
    }
  });

  it('answers staff on an owner’s page with a page of the office that says why and leads back to the inbox, at 390 px', async () => {
    const { context, page } = await visitor({ width: 390 });
    const refused = refusedByPolicy(page);
    await signInOnPage(page, server.url, helper);
    // A bookmark of the System page, which is an owner's.
    const response = await page.goto(`${server.url}/office/system`);
    expect(response!.status()).toBe(403);
    expect(response!.headers()['content-security-policy']).toMatch(/style-src 'self'/);
    expect(await page.title()).toMatch(/^Not open to you here · .+ · Office$/);
    expect(await page.locator('.site-header .brand').innerText()).toMatch(/ · Office$/);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Not open to you here');
    const words = await page.getByRole('alert').innerText();
    expect(words).toContain('The System page, with what the office did is for the company’s owners only');
    expect(words).toContain('If this needs doing, ask an owner.');
    // The office's stylesheet applies (the header's rule under it), and nothing was refused by the policy.
    expect(await page.locator('.site-header').evaluate((e) => getComputedStyle(e).borderBottomStyle)).toBe('solid');
    expect(await page.locator('.skip').evaluate((e) => getComputedStyle(e).position)).toBe('absolute');
    expect(refused).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (PICTURES) await page.screenshot({ path: `${PICTURES}/office-refusal-403-390.png`, fullPage: true });
    await page.getByRole('link', { name: 'Back to the inbox' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await context.close();
  });

  it('answers staff who change a colleague’s lead to “Nobody” by hand with a page naming who has it, and saves nothing of the form', async () => {
    const reference = await sentLead(server.url, quote({ name: 'Hal Heldby', email: 'hal.heldby@example.com', phone: '(503) 555-0164' }));
    const owner = await signedIn(server.url);
    expect((await officePost(server.url, '/office/take', { reference, take: 'yes', back: '/office' }, owner)).status).toBe(303);
    const { context, page } = await visitor({ width: 390, javaScript: true });
    await signInOnPage(page, server.url, helper);
    const row = await openLead(page, reference);
    // The page offers staff the holder and "You" alone: the choice "Nobody" is put in by hand, as a tampered form would send it.
    const owners = row.getByLabel('Who has it');
    expect(await owners.locator('option').allInnerTexts()).toEqual([STAFF.email, 'You']);
    await owners.evaluate((select) => select.append(new Option('Nobody', 'nobody', true, true)));
    await row.getByLabel('Status').selectOption('done');
    await row.getByLabel(/^Note of the call/).fill('Not mine, letting it go.');
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/office/work')), row.getByRole('button', { name: 'Save' }).click()]);
    expect(response.status()).toBe(409);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Changed meanwhile');
    const words = await page.getByRole('alert').innerText();
    expect(words).toContain(`${STAFF.email} has this lead now, so you cannot make it nobody’s. Nothing was saved, not even a note`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (PICTURES) await page.screenshot({ path: `${PICTURES}/office-refusal-held-390.png`, fullPage: true });
    await page.getByRole('link', { name: 'Back to the inbox' }).click();
    const again = await openLead(page, reference);
    expect(await again.innerText()).not.toContain('Not mine, letting it go.');
    expect(await again.getByLabel('Status').inputValue()).toBe('new');
    expect(await again.getByLabel('Who has it').locator('option:checked').innerText()).toBe(STAFF.email);
    await context.close();
  });
});
