/**
 * The office's spreadsheet and its deletion on request, in headless Chromium against the built
 * server on the embedded store, with and without JavaScript and on a 390 px phone: the inbox's
 * "Download these as a spreadsheet" gives what the list shows (its filters and its search), in the
 * columns the office works with (status, who set it and when, who has the lead, the notes, the phone
 * as dialled), with no internal identifier; staff are not offered it. A deletion lists every lead and
 * every caught submission of the phone, each ticked; only the ticked ones go, and the page and the
 * audit trail say how many were kept.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { addUser, officePost, showFilters, signedIn, STAFF, sentLead, sentTooFast, signInOnPage } from '../support/office.ts';

/** The spreadsheet's header, in order: what the office works with, and nothing internal. */
const COLUMNS = [
  'Reference',
  'Received (America/Los_Angeles time)',
  'Form',
  'Name',
  'Phone',
  'E-mail',
  'Service',
  'Bedrooms',
  'Bathrooms',
  'ZIP code',
  'Outside the service area',
  'Preferred dates',
  'Time of day',
  'How often',
  'Reach first by',
  'Reach only by',
  'Status',
  'Status set by',
  'Status set (America/Los_Angeles time)',
  'Taken by',
  'Office notes',
  'Help with',
  'Customer’s notes',
  'Message',
  'Window of days',
  // Appended (issue 55, item 8): the promise checked from the spreadsheet.
  'Answer by (America/Los_Angeles time)',
  'First contact (America/Los_Angeles time)',
  'First contact by',
  'In time or late',
  'Attempts',
];

describe.skipIf(!chromiumAvailable())("the office's spreadsheet and its deletion on request in Chromium", () => {
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
      acceptDownloads: true,
    });

  const signIn = (page: Page, who: { email: string; password: string } = STAFF) => signInOnPage(page, server.url, who);

  /** Stores `body` through the API; resolves with its reference. */
  const sent = (body: Record<string, unknown>) => sentLead(server.url, body);

  /** Sends the quote form within a second, as a spam program would: the fill-time trap keeps it aside. */
  const sendTooFast = (who: { name: string; phone: string; email: string }) => sentTooFast(browser, server, who);

  /** Clicks the inbox's spreadsheet link and reads the file it downloads: its header and rows. */
  async function downloadThese(page: Page) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download these as a spreadsheet' }).click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header] = parse(text.slice(1), { to: 1 }) as string[][];
    return { header: header!, rows: parse(text.slice(1), { columns: true }) as Array<Record<string, string>>, name: download.suggestedFilename() };
  }

  const fits = async (page: Page, width: number) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

  it('downloads what the inbox shows (its filters, its search) in the office’s columns, with and without JavaScript at 390 px', async () => {
    const worked = await sent(quote({ name: 'Wanda Worked', bedrooms: '0', phone: '+1 503 555 0161', email: 'wanda.worked@example.com', postalCode: '97201' }));
    const other = await sent(quote({ name: 'Otto Other', phone: '(503) 555-0162', email: 'otto.other@example.com' }));
    const cookie = await signedIn(server.url);
    expect((await officePost(server.url, '/office/status', { reference: worked, status: 'contacted', back: '/office' }, cookie)).status).toBe(303);
    expect((await officePost(server.url, '/office/take', { reference: worked, take: 'yes', back: '/office' }, cookie)).status).toBe(303);
    for (const note of ['Called, no answer.', 'Rang back: Tuesday at 10.'])
      expect((await officePost(server.url, '/office/note', { reference: worked, note, back: '/office' }, cookie)).status).toBe(303);

    for (const options of [
      { javaScript: false, width: 390 },
      { javaScript: true, width: 1024 },
    ]) {
      const { context, page } = await visitor(options);
      await signIn(page);
      // The list narrowed to what is being worked on: the spreadsheet holds that, and that alone.
      await showFilters(page);
      await page.locator('#status').selectOption('contacted');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForLoadState('load');
      expect((await page.locator('li.lead h2').allInnerTexts()).map((t) => t.trim())).toEqual(['Wanda Worked']);
      await fits(page, options.width);
      const { header, rows } = await downloadThese(page);
      expect(header).toEqual(COLUMNS);
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row).toMatchObject({
        Reference: worked,
        Name: 'Wanda Worked',
        Phone: '(503) 555-0161',
        'E-mail': 'wanda.worked@example.com',
        Bedrooms: 'Studio',
        'ZIP code': '97201',
        'Outside the service area': 'no',
        Status: 'Contacted',
        'Status set by': STAFF.email,
        'Taken by': STAFF.email,
        Form: 'quote request',
      });
      expect(row['Status set (America/Los_Angeles time)']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
      expect(row['Office notes']!.split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d, ${STAFF.email}: Called, no answer\\.$`)),
        expect.stringMatching(/, office@example\.com: Rang back: Tuesday at 10\.$/),
      ]);
      expect(row['Customer’s notes']).toMatch(/^Two cats/);
      // Nothing a spreadsheet would run, and nothing internal.
      expect(Object.values(row).some((cell) => /^['=+\-@]/.test(cell))).toBe(false);
      expect(JSON.stringify(rows)).not.toMatch(/\+1503|[0-9a-f]{8}-[0-9a-f]{4}-/);

      // A search narrows the spreadsheet as it narrows the list; its text is in no address.
      await page.getByLabel('Name, e-mail, phone or reference').fill('otto oth');
      await page.locator('#status').selectOption('');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForLoadState('load');
      expect((await page.locator('li.lead h2').allInnerTexts()).map((t) => t.trim())).toEqual(['Otto Other']);
      const href = await page.getByRole('link', { name: 'Download these as a spreadsheet' }).getAttribute('href');
      expect(href).toMatch(/^\/office\/export\.csv\?search=[A-Za-z0-9_-]{16}$/);
      const searched = await downloadThese(page);
      expect(searched.rows.map((r) => [r.Reference, r.Status, r['Taken by']])).toEqual([[other, 'New', '']]);

      // And everything, from the inbox unfiltered.
      await page.goto(`${server.url}/office?view=all`);
      const everything = await downloadThese(page);
      expect(everything.rows.map((r) => r.Reference)).toEqual(expect.arrayContaining([worked, other]));
      await fits(page, options.width);
      await context.close();
    }

    // Each download is in the audit trail, with what was chosen and never what was searched for.
    const { context, page } = await visitor();
    await signIn(page);
    await page.goto(`${server.url}/office/system`);
    const activity = await page.locator('#activity + table').innerText();
    expect(activity).toContain('Downloaded a spreadsheet of 1 lead (both forms, the start to now, status Contacted).');
    expect(activity).toContain('Downloaded a spreadsheet of 1 lead (both forms, the start to now, matching a search).');
    expect(activity).not.toContain('otto');
    await context.close();
  });

  it('offers staff no spreadsheet, and refuses a download whose search has ended', async () => {
    await sent(quote({ name: 'Stan Staffseen', phone: '(503) 555-0163', email: 'stan.staffseen@example.com' }));
    const { context, page } = await visitor({ javaScript: false, width: 390 });
    await signIn(page, helper);
    expect(await page.locator('li.lead').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Download these as a spreadsheet' }).count()).toBe(0);
    await context.close();
    const cookie = await signedIn(server.url);
    const ended = await fetch(`${server.url}/office/export.csv?search=AAAAAAAAAAAAAAAA`, { headers: { Cookie: cookie } });
    expect(ended.status).toBe(400);
    expect(await ended.text()).toContain('That search is no longer kept');
  });

  it('lists every lead and caught submission of a phone, each ticked, and deletes only the ticked ones, with and without JavaScript at 390 px', async () => {
    for (const options of [
      { javaScript: false, width: 390 },
      { javaScript: true, width: 390 },
    ]) {
      const tag = options.javaScript ? 'b' : 'a';
      const phone = options.javaScript ? '(503) 555-0181' : '(503) 555-0182';
      const dana = await sent(quote({ name: 'Dana Shared', phone, email: `dana.${tag}@example.com` }));
      const lee = await sent(contact({ name: 'Lee Shared', phone, email: `lee.${tag}@example.com` }));
      const caught = await sendTooFast({ name: 'Dana Caught', phone, email: `dana.caught.${tag}@example.com` });
      const { context, page } = await visitor(options);
      await signIn(page);
      const find = async () => {
        await page.goto(`${server.url}/office/delete`);
        await page.getByLabel('Phone number').fill(phone);
        await page.getByRole('button', { name: 'Find their leads' }).click();
      };
      await find();
      await page.getByRole('heading', { name: 'Found 2 leads and 1 submission from suspected spam with this phone number' }).waitFor();
      const boxes = page.getByRole('checkbox');
      expect(await boxes.count()).toBe(3);
      for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
      const list = await page.locator('.would-remove').innerText();
      for (const what of [dana, lee, caught, 'Dana Shared', 'Lee Shared', 'Dana Caught', 'quote request', 'contact message']) expect(list).toContain(what);
      expect(await page.locator('.would-remove li', { hasText: caught }).getByText('Suspected spam').count()).toBe(1);
      expect(await page.getByText('These carry more than one name').count()).toBe(1);
      await fits(page, 390);

      // Nothing ticked: nothing goes, and the page says so.
      for (const box of await boxes.all()) await box.uncheck();
      await page.getByRole('button', { name: 'Delete the ticked ones for good' }).click();
      expect(await page.getByRole('alert').innerText()).toContain('Nothing was ticked, so nothing was deleted.');
      expect(await page.getByRole('checkbox').count()).toBe(3);

      // Lee shares Dana's phone: unticked, Lee's lead stays.
      await page.getByRole('checkbox', { name: /Lee Shared/ }).uncheck();
      await page.getByRole('button', { name: 'Delete the ticked ones for good' }).click();
      const said = await page.getByRole('status').innerText();
      expect(said).toContain('Removed 1 lead and 1 submission from suspected spam.');
      expect(said).toContain('Kept 1 lead, not ticked.');
      await fits(page, 390);
      await find();
      await page.getByRole('heading', { name: 'Found 1 lead with this phone number' }).waitFor();
      expect(await page.locator('.would-remove').innerText()).toContain(lee);
      expect(await page.locator('.would-remove').innerText()).not.toContain(dana);

      await page.goto(`${server.url}/office/system`);
      const activity = await page.locator('#activity + table').innerText();
      expect(activity).toContain('Deleted 1 lead and 1 submission from suspected spam on request, found by phone number. Kept 1 lead, not ticked.');
      expect(activity).not.toContain('Dana');
      await context.close();
    }
  });
});
