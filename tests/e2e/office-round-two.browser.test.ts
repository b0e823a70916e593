/**
 * The office's second round, in headless Chromium against the built server on the embedded store:
 * every input styled alike (password and date too), "Studio" for a home with no bedrooms on the
 * page and in the spreadsheet, the audit trail in plain sentences; one search that forgives (no
 * dashes, any case, accents and ø, ß both ways) and looks in suspected spam too, marked as such;
 * roles: staff work the leads, and an owner's pages answer them with a 403 in words; and work as a
 * team: a note on a lead, who has taken it, and the inbox filtered by whose it is.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, officePost, openLead, showFilters, signedIn, STAFF, sentLead, sentTooFast, signInOnPage } from '../support/office.ts';

describe.skipIf(!chromiumAvailable())("the office's second round in Chromium", () => {
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

  // Each visitor is a client of its own (TRUST_PROXY names loopback): signing in again and again spends no one client's sign-in limit.
  const visitor = (options: { width?: number; javaScript?: boolean } = {}) =>
    offlinePage(browser, server.url, {
      viewport: { width: options.width ?? 1024, height: 900 },
      javaScriptEnabled: options.javaScript ?? true,
      extraHTTPHeaders: newClient(),
    });

  const signIn = (page: Page, who: { email: string; password: string } = STAFF) => signInOnPage(page, server.url, who);

  /** Stores `body` through the API; resolves with its reference. */
  const sent = (body: Record<string, unknown>) => sentLead(server.url, body);

  /** Sends the quote form within a second, as a spam program would: the fill-time trap keeps it aside. */
  const sendTooFast = (who: { name: string; phone: string; email: string }) => sentTooFast(browser, server, who);

  /** Searches the inbox for `text` as the office types it. */
  async function search(page: Page, text: string) {
    await page.getByLabel('Name, e-mail, phone or reference').fill(text);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  }

  /** The computed look of the element `selector` names: what tells a styled box from the browser's default. */
  const look = (page: Page, selector: string) =>
    page.locator(selector).evaluate((el) => {
      const s = getComputedStyle(el);
      return { border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`, radius: s.borderTopLeftRadius, minHeight: s.minHeight, font: s.fontSize };
    });

  it('styles the password and date boxes as every other box, with and without JavaScript and at 390 px', async () => {
    for (const options of [{ javaScript: true }, { javaScript: false, width: 390 }]) {
      const { context, page } = await visitor(options);
      await page.goto(`${server.url}/office/sign-in`);
      expect(await look(page, '#password')).toEqual(await look(page, '#email'));
      await signIn(page);
      await showFilters(page);
      const zip = await look(page, '#zip');
      expect(await look(page, '#since')).toEqual(zip);
      expect(await look(page, '#until')).toEqual(zip);
      expect(await look(page, '#q')).toEqual(zip);
      await page.goto(`${server.url}/office/export`);
      expect(await look(page, '#since'), JSON.stringify(options)).toEqual(zip);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.width ?? 1024);
      await context.close();
    }
  });

  it('says "Studio" for a home with no bedrooms, on the page and in the spreadsheet', async () => {
    const reference = await sent(quote({ name: 'Stella Studio', bedrooms: '0', phone: '(503) 555-0170', email: 'stella.studio@example.com' }));
    const { context, page } = await visitor();
    await signIn(page);
    const card = await openLead(page, reference);
    expect(await card.locator('.lead-fields').innerText()).toMatch(/Bedrooms\s+Studio/);
    await page.getByRole('link', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the spreadsheet' }).click()]);
    const rows = parse(readFileSync((await download.path())!, 'utf8').slice(1), { columns: true }) as Array<Record<string, string>>;
    expect(rows.find((r) => r.Reference === reference)?.Bedrooms).toBe('Studio');
    await context.close();
  });

  it('writes the audit trail in plain sentences', async () => {
    const reference = await sent(quote({ name: 'Audra Audit', phone: '(503) 555-0171', email: 'audra.audit@example.com' }));
    const { context, page } = await visitor({ javaScript: false });
    await signIn(page);
    const card = await openLead(page, reference);
    await card.getByLabel('Status').selectOption('done');
    await card.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'System' }).click();
    const activity = await page.locator('#activity + table').innerText();
    expect(activity).toContain(`Changed ${reference} from New to Done.`);
    expect(activity).toContain('Signed in.');
    expect(activity).not.toMatch(/set a status:|: new to done/);
    await context.close();
  });

  it('finds a lead by a forgiving search, and what the spam checks caught in the same search, marked, at 390 px without JavaScript', async () => {
    const reference = await sent(quote({ name: 'José Ødegård', phone: '(503) 555-0173', email: 'jose.odegard@example.com' }));
    const caughtReference = await sendTooFast({ name: 'Bjørn Straße', phone: '(503) 555-0174', email: 'bjorn.strasse@example.com' });
    for (const options of [{ javaScript: false, width: 390 }, { javaScript: true }]) {
      const { context, page } = await visitor(options);
      await signIn(page);
      for (const typed of ['jose odegard', 'JOSÉ ØDEGÅRD', reference.replace(/-/g, '').toLowerCase(), reference.slice(2, 6), '503.555.0173']) {
        await search(page, typed);
        await page.waitForLoadState('load');
        expect(
          (await page.locator('li.lead h2').allInnerTexts()).map((t) => t.trim()),
          typed,
        ).toEqual(['José Ødegård']);
        expect(page.url()).not.toContain(encodeURIComponent(typed));
      }
      // Not in the inbox, but caught: listed beside it, marked, and moved to the inbox from there.
      await search(page, 'strasse');
      expect(await page.getByText('No lead matches this search in the inbox.').count()).toBe(1);
      const caught = page.locator('li.lead.caught', { hasText: caughtReference });
      expect(await caught.getByText('Suspected spam', { exact: true }).count()).toBe(1);
      expect(await caught.innerText()).toContain('Bjørn Straße');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.width ?? 1024);
      if (options.javaScript) {
        await caught.locator('summary').click();
        await caught.getByRole('button', { name: 'Move to the inbox' }).click();
        await page.getByRole('button', { name: 'Yes, move it to the inbox' }).click();
        expect(await page.getByRole('status').innerText()).toContain(`Moved to the inbox as ${caughtReference}.`);
        await page.goto(`${server.url}/office`);
        await search(page, 'Straße');
        await page.waitForLoadState('load');
        expect((await page.locator('li.lead h2').allInnerTexts()).map((t) => t.trim())).toEqual(['Bjørn Straße']);
        expect(await page.locator('li.lead.caught').count()).toBe(0);
      }
      await context.close();
    }
  });

  it('lets staff work the leads, and tells them in words, with a 403, that an owner’s pages are not theirs', async () => {
    const helper = { email: 'helper@example.com', password: 'a helper passphrase 1' };
    expect(await addUser(server.databaseUrl, helper.email, helper.password, ['--role', 'staff'])).toContain('as staff');
    const reference = await sent(quote({ name: 'Rhoda Roles', phone: '(503) 555-0175', email: 'rhoda.roles@example.com' }));
    for (const options of [{ javaScript: false, width: 390 }, { javaScript: true }]) {
      const { context, page } = await visitor(options);
      await signIn(page, helper);
      // The menu offers what staff may open, and nothing else.
      const menu = await page.getByRole('navigation', { name: 'Office' }).innerText();
      expect(menu).toContain('Inbox');
      expect(menu).toContain('Suspected spam');
      for (const owners of ['Export', 'Delete on request', 'System']) expect(menu).not.toContain(owners);
      // Staff search and set a status (another each time: the same again is no change).
      await search(page, reference.replace(/-/g, ''));
      const card = await openLead(page, reference);
      const status = options.javaScript ? 'contacted' : 'done';
      await card.getByLabel('Status').selectOption(status);
      await card.getByRole('button', { name: 'Save' }).click();
      expect(await page.getByRole('status').innerText()).toContain(`Saved: ${reference} is now ${status}.`);
      await page
        .getByRole('link', { name: /^Suspected spam/ })
        .first()
        .click();
      await page.getByRole('heading', { name: 'Suspected spam' }).waitFor();
      // An owner's page, opened anyway: a 403 that says why, in words.
      for (const path of ['/office/export', '/office/export.csv', '/office/delete', '/office/system']) {
        const response = await page.goto(`${server.url}${path}`);
        expect(response!.status(), path).toBe(403);
        const text = await page.locator('body').innerText();
        expect(text, path).toContain('is for the company’s owners only');
        expect(text, path).toContain('You are signed in as helper@example.com, a member of staff');
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.width ?? 1024);
      await context.close();
    }
    // A deletion sent by staff is refused before anything is removed.
    const cookie = await signedIn(server.url, helper);
    const refused = await officePost(server.url, '/office/delete', { person: 'rhoda.roles@example.com', confirm: 'yes' }, cookie);
    expect(refused.status).toBe(403);
    // However the address of an owner's page is written.
    for (const path of ['/office/%65xport', '/office//delete', '/office/system/', '/office/Export.csv'])
      expect((await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { Cookie: cookie } })).status, path).toBe(403);
    const { context, page } = await visitor();
    await signIn(page);
    await search(page, reference);
    expect(await page.locator('li.lead', { hasText: reference }).count()).toBe(1);
    // The owner still has every page, and reads who set the status.
    expect(await (await openLead(page, reference)).innerText()).toContain('Contacted, set by helper@example.com');
    expect(await page.getByRole('navigation', { name: 'Office' }).innerText()).toContain('System');
    await context.close();
  });

  it('keeps a note on a lead and who has taken it, and filters the inbox by whose it is, with and without JavaScript at 390 px', async () => {
    for (const options of [
      { javaScript: false, width: 390 },
      { javaScript: true, width: 390 },
    ]) {
      const reference = await sent(quote({ name: `Nora Notes ${options.javaScript ? 'B' : 'A'}`, phone: '(503) 555-0178', email: 'nora.notes@example.com' }));
      const { context, page } = await visitor(options);
      await signIn(page);
      await search(page, reference);
      const card = () => page.locator('li.lead', { hasText: reference });
      await openLead(page, reference);
      expect(await card().getByLabel('Who has it').inputValue()).toBe('nobody');
      await card().getByLabel('Who has it').selectOption({ label: 'You' });
      await card().getByRole('button', { name: 'Save' }).click();
      expect(await page.getByRole('status').innerText()).toContain(`You have taken ${reference}.`);
      expect(await card().innerText()).toContain('Taken by you');
      await card()
        .getByLabel(/^Note of the call/)
        .fill('Called, no answer; try tomorrow after 10.');
      await card().getByRole('button', { name: 'Save' }).click();
      expect(await page.getByRole('status').innerText()).toContain(`Saved: a note on ${reference}.`);
      expect(await card().innerText()).toContain('Called, no answer; try tomorrow after 10.');
      expect(await card().innerText()).toContain(STAFF.email);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // Whose it is: mine lists it, nobody's does not.
      await page.goto(`${server.url}/office`);
      await showFilters(page);
      await page.getByLabel('Taken by').selectOption('mine');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      expect(await page.locator('li.lead', { hasText: reference }).count()).toBe(1);
      await page.getByLabel('Taken by').selectOption('nobody');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      expect(await page.locator('li.lead', { hasText: reference }).count()).toBe(0);
      // The audit trail says a note was added, never what it says.
      await page.goto(`${server.url}/office/system`);
      const activity = await page.locator('#activity + table').innerText();
      expect(activity).toContain(`Added a note to ${reference}.`);
      expect(activity).toContain(`Took ${reference}.`);
      expect(activity).not.toContain('try tomorrow');
      await context.close();
    }
  });
});
