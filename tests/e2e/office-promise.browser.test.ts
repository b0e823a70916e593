/**
 * The promise made to each customer, in the office's sight (issue 46, item 1), in headless Chromium
 * on a 390 × 844 phone and a 1024 × 768 laptop, with and without JavaScript: the inbox opens on the
 * leads waiting for a first answer, the most urgent first, each with its answer-by time in words and
 * marked late or due today; the counts say how many are late; every lead, newest first, is one tap
 * away; and a lead's first contact is recorded, who and when, and whether it came in time.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { promiseState, waitingWords } from '../../src/office/promise-words.ts';
import { contentPromise } from '../support/documents.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, openLead, signInOnPage, STAFF } from '../support/office.ts';
import { seedLeads } from '../support/seed.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

const ZONE = 'America/Los_Angeles';
const HOUR = 3_600_000;
const VIEWS = [
  { width: 390, height: 844, javaScript: true },
  { width: 1024, height: 768, javaScript: false },
] as const;

describe.skipIf(!chromiumAvailable())('the promise in the office’s sight, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const now = Date.now();
  /** Four waiting customers, sent in this order, promised in another: one late, one due soon, two later; and one already contacted. */
  const customers = [
    { name: 'Laura Later', received: now - 2 * HOUR, answerBy: now + 50 * HOUR },
    { name: 'Lee Late', received: now - 30 * HOUR, answerBy: now - 3 * HOUR },
    { name: 'Sam Soon', received: now - 20 * HOUR, answerBy: now + 10 * 60_000 },
    { name: 'Nina Next', received: now - HOUR, answerBy: now + 26 * HOUR },
    { name: 'Connie Contacted', received: now - 40 * HOUR, answerBy: now - 20 * HOUR },
  ];
  const references: string[] = [];
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    const store = openSqliteStore(server.databaseUrl.replace(/^file:/, ''));
    try {
      references.push(
        ...(await seedLeads(store, customers.length, {
          body: (i) => quote({ name: customers[i]!.name, email: `promise.${i}@example.com` }),
          receivedAt: (i) => new Date(customers[i]!.received),
          answerBy: (i) => new Date(customers[i]!.answerBy),
        })),
      );
      const ref = references[4]!;
      await store.setStatus(ref, 'contacted', STAFF.email, new Date(now - 21 * HOUR), () => ({
        at: new Date(),
        actor: STAFF.email,
        action: 'set a status',
        detail: `Changed ${ref} from New to Contacted.`,
      }));
    } finally {
      await store.close();
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const signIn = (page: Page) => signInOnPage(page, server.url);
  // Read once the page a tap opened has loaded whole: its list arrives after its headings.
  const names = async (page: Page) => (await page.waitForLoadState('load'), (await page.locator('li.lead .lead-name').allInnerTexts()).map((t) => t.trim()));

  for (const view of VIEWS)
    it(`opens on the waiting leads, the most urgent first, each with its answer-by in words, at ${view.width} px (JavaScript ${view.javaScript ? 'on' : 'off'})`, async () => {
      const { context, page } = await offlinePage(browser, server.url, {
        viewport: { width: view.width, height: view.height },
        javaScriptEnabled: view.javaScript,
        extraHTTPHeaders: newClient(),
      });
      await signIn(page);
      expect(await names(page)).toEqual(['Lee Late', 'Sam Soon', 'Nina Next', 'Laura Later']);
      const rendered = Date.now();
      for (const i of [1, 2, 3, 0]) {
        const answerBy = new Date(customers[i]!.answerBy);
        const tag = page.locator('li.lead.compact', { hasText: customers[i]!.name }).locator('.tag.promise');
        // How late is in working time, read at the page's moment, not the test's: the words' shape, not their minutes.
        if (i === 1) expect(await tag.innerText()).toMatch(/^Late( by \d+½? working (minutes?|hours?|days?))?: answer by was \S/);
        else expect(await tag.innerText()).toBe(waitingWords(answerBy, new Date(rendered), contentPromise));
        expect(await tag.getAttribute('class')).toContain(`promise-${promiseState(answerBy, new Date(rendered), ZONE)}`);
      }
      expect(await page.locator('li.lead.compact', { hasText: 'Lee Late' }).innerText()).toMatch(/Late( by [^:]+)?: answer by was /);
      // The counts say how many are late, and lead back here.
      const counts = page.getByRole('navigation', { name: 'Waiting leads by urgency' });
      expect((await counts.getByRole('link', { name: /late$/ }).innerText()).replace(/\s+/g, ' ').trim()).toBe('1 late');
      // The first waiting lead is in the first screen: the filters are folded behind one control.
      expect((await page.locator('li.lead.compact').first().boundingBox())!.y).toBeLessThan(view.height);
      expect(await page.getByLabel('Status', { exact: true }).first().isVisible()).toBe(false);
      await page.locator('summary', { hasText: 'Filters' }).click();
      expect(await page.locator('#status').isVisible()).toBe(true);
      // Every lead, newest first, one tap away: the contacted one too, with its first contact and whether it came in time.
      await page.getByRole('link', { name: 'Every lead, newest first' }).click();
      expect(await names(page)).toEqual(['Nina Next', 'Laura Later', 'Sam Soon', 'Lee Late', 'Connie Contacted']);
      const contacted = await openLead(page, references[4]!);
      expect(await contacted.innerText()).toMatch(new RegExp(`First contacted by ${STAFF.email.replace('.', '\\.')} on .*: in time\\.`));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      await context.close();
    });

  for (const view of [...VIEWS, { width: 390, height: 844, javaScript: false }] as const)
    it(`heads the waiting leads by urgency, and a count opens its group with the filters folded, at ${view.width} px (JavaScript ${view.javaScript ? 'on' : 'off'})`, async () => {
      const { context, page } = await offlinePage(browser, server.url, {
        viewport: { width: view.width, height: view.height },
        javaScriptEnabled: view.javaScript,
        extraHTTPHeaders: newClient(),
      });
      await signIn(page);
      await page.waitForLoadState('load');
      // Headings, most urgent first, each with its whole count; the leads' names under them.
      const headings = (await page.locator('.waiting-group .group-heading').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      expect(headings[0]).toBe('Late (1)');
      expect(await page.locator('.group-late li.lead .lead-name').allInnerTexts()).toEqual(['Lee Late']);
      expect(await page.getByRole('heading', { level: 3, name: 'Lee Late' }).count()).toBe(1);
      // The count of the late opens the late alone, its link marked current, the filters folded.
      await page.getByRole('navigation', { name: 'Waiting leads by urgency' }).getByRole('link', { name: '1 late' }).click();
      await page.waitForLoadState('load');
      expect(new URL(page.url()).searchParams.get('due')).toBe('late');
      expect(await names(page)).toEqual(['Lee Late']);
      expect(await page.getByRole('link', { name: '1 late' }).getAttribute('aria-current')).toBe('page');
      expect(await page.locator('details.more-filters').getAttribute('open')).toBeNull();
      expect(await page.locator('p.list-order').innerText()).toContain('“Late” alone');
      expect((await page.locator('li.lead.compact').first().boundingBox())!.y).toBeLessThan(view.height);
      // Back to every waiting lead in one tap.
      await page.getByRole('link', { name: 'Every waiting lead' }).click();
      expect(await names(page)).toEqual(['Lee Late', 'Sam Soon', 'Nina Next', 'Laura Later']);
      await context.close();
    });
});
