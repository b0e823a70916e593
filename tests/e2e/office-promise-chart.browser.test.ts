/**
 * Is the promise kept? (issue 46, item 2), in headless Chromium on a 390 × 844 phone with JavaScript
 * and a 1024 × 768 laptop without: the inbox's first page shows, under the leads per week, the
 * twelve weeks' leads answered in time and late and the median time to a first contact in working
 * hours, drawn on the server with a title and a description, and every figure in a table.
 */
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekOf, weekStarts } from '../../src/office/overview.ts';
import { readContent } from '../../src/content-check/read.ts';
import { companyOf } from '../../src/site/from-content.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, STAFF } from '../support/office.ts';
import { seedLeads } from '../support/seed.ts';
import { freePort, ROOT, startServer, type RunningServer } from '../support/server.ts';

const ZONE = 'America/Los_Angeles';
const HOUR = 3_600_000;
const VIEWS = [
  { width: 390, height: 844, javaScript: true },
  { width: 1024, height: 768, javaScript: false },
] as const;

describe.skipIf(!chromiumAvailable())('the promise chart on the inbox’s first page, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  // Three weeks before this one: a Monday (no clock change falls on one), each lead promised an answer by Tuesday 6 pm.
  const monday = weekStarts(new Date(), ZONE)[9]!;
  const label = weekOf(monday, ZONE).label;
  const h = (hours: number) => new Date(monday.getTime() + hours * HOUR);
  /** Received, first contacted (none: still waiting), in hours after Monday's midnight. */
  const leads = [
    { received: 10, contacted: 11.5 }, // in time: 1 h 30 min of working hours
    { received: 12, contacted: 14 }, // in time: 2 h
    { received: 16, contacted: 57 }, // late, on Wednesday at 9 am: 2 h on Monday, 10 on Tuesday, 1 on Wednesday
    { received: 9, contacted: undefined }, // still waiting, long past its answer-by: late
  ];
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    const file = server.databaseUrl.replace(/^file:/, '');
    const store = openSqliteStore(file);
    let references: string[];
    try {
      references = await seedLeads(store, leads.length, {
        body: (i) => quote({ name: `Chart Customer ${i}`, email: `chart.${i}@example.com` }),
        receivedAt: (i) => h(leads[i]!.received),
        answerBy: () => h(42),
      });
    } finally {
      await store.close();
    }
    const db = new DatabaseSync(file);
    const contact = db.prepare(
      "UPDATE leads SET status = 'contacted', status_by = ?, status_at = ?, first_contact_by = ?, first_contact_at = ? WHERE reference = ?",
    );
    for (const [i, lead] of leads.entries())
      if (lead.contacted !== undefined) contact.run(STAFF.email, h(lead.contacted).toISOString(), STAFF.email, h(lead.contacted).toISOString(), references[i]!);
    db.close();
    // First contacts written by hand get their working minutes as the service's next start would measure them (decision 0027).
    const kept = openSqliteStore(file);
    const content = readContent(ROOT);
    await kept.keepOfficeClock({ promise: companyOf(content.company).promise, services: content.quoteForm.services }).finally(() => kept.close());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function signIn(page: Page) {
    await page.goto(`${server.url}/office`);
    await page.getByLabel('E-mail address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  }

  for (const view of VIEWS)
    it(`shows each week in time and late, with the median in working hours, drawn and tabled, at ${view.width} px (JavaScript ${view.javaScript ? 'on' : 'off'})`, async () => {
      const { context, page } = await offlinePage(browser, server.url, {
        viewport: { width: view.width, height: view.height },
        javaScriptEnabled: view.javaScript,
        extraHTTPHeaders: newClient(),
      });
      await signIn(page);
      const section = page.getByRole('region', { name: 'Is the promise kept?' });
      await section.scrollIntoViewIfNeeded();
      // Below the leads per week.
      const [weeks, promise] = [await page.locator('#weeks-heading').boundingBox(), await section.boundingBox()];
      expect(promise!.y).toBeGreaterThan(weeks!.y);
      // The picture, named and described: the text alternative says the figures.
      const chart = section.getByRole('img', { name: /answered in time and late/ });
      expect(await chart.count()).toBe(1);
      const desc = await section.locator('svg desc').textContent();
      expect(desc).toContain('2 leads answered in time and 2 leads late, 1 of them still waiting.');
      expect(desc).toContain(`Week of ${label}: 2 in time, 2 late (1 still waiting), median 2 h`);
      expect(await section.locator('svg rect').count()).toBeGreaterThanOrEqual(4);
      // The words say which leads are late, and why.
      expect(await section.locator('figcaption').innerText()).toMatch(/Late: first contacted after it, or not contacted yet with that time gone by/);
      // Every figure in a table, one tap away.
      await section.locator('summary', { hasText: 'The promise, week by week' }).click();
      const table = section.getByRole('table');
      expect(await table.isVisible()).toBe(true);
      expect(await table.locator('thead th').allInnerTexts()).toEqual([
        'Week of',
        'In time',
        'Late',
        'Of them, still waiting',
        'Share in time',
        'Median to first contact, working time',
      ]);
      const row = table.locator('tbody tr', { has: page.locator(`time[datetime="${weekOf(monday, ZONE).monday}"]`) });
      expect((await row.locator('td').allInnerTexts()).map((t) => t.trim())).toEqual(['2', '2', '1', '50%', '2 h']);
      expect(await table.locator('tbody tr').count()).toBe(12);
      // The newest week first.
      const mondays = await table.locator('tbody th time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime')!));
      expect(mondays).toEqual([...mondays].sort().reverse());
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      // Like the leads per week, on the first page of every lead alone: not on a filtered view.
      await page.goto(`${server.url}/office?form=quote`);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Is the promise kept?' }).count()).toBe(0);
      await context.close();
    });
});
