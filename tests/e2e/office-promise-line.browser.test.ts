/**
 * The promise in reach, and no traps (issue 55, items 7 and 9), in headless Chromium against the
 * built server, its clock still at one instant (a Wednesday morning), on a 390 × 844 phone and a
 * 1024 × 768 laptop, with and without JavaScript: one line under the inbox's counts says last week's
 * share answered in time and the median time to a first contact in working hours, and links to the
 * promise chart; the chart names every bar, last week's too; its week tables list the newest week
 * first and fit the screen; "Filters" shows that it folds; the search's buttons say what they do; and
 * the System page's audit trail reads on a phone, no address broken inside a word.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekOf, weekStarts } from '../../src/office/overview.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, signInOnPage, STAFF } from '../support/office.ts';
import { PICTURE_CLOCK, pictureClockEnv } from '../support/screenshot.ts';
import { seedLeads } from '../support/seed.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

const ZONE = 'America/Los_Angeles';
const HOUR = 3_600_000;
/** The server's clock, still: Wednesday, December 2, 2026, 9:30 am in the office's time zone. */
const NOW = new Date(PICTURE_CLOCK);
const VIEWS = [
  { width: 390, height: 844, javaScript: true },
  { width: 390, height: 844, javaScript: false },
  { width: 1024, height: 768, javaScript: true },
  { width: 1024, height: 768, javaScript: false },
] as const;
/** A colleague whose address is longer than a phone's column of a table. */
const LONG_ADDRESS = 'reception.desk.saturday.mornings@example.com';

describe.skipIf(!chromiumAvailable())('the promise in reach, and no traps, in Chromium', () => {
  let dir: string;
  let server: RunningServer;
  let browser: Browser;
  let reference: string;
  const starts = weekStarts(NOW, ZONE);
  // Last week's Monday (November 23), and hours after its midnight: the office opens 8 am to 6 pm, Monday to Friday.
  const lastWeek = starts[10]!;
  const h = (hours: number, from = lastWeek) => new Date(from.getTime() + hours * HOUR);
  /** Received and first contacted (none: still waiting), in hours after a Monday's midnight, each promised an answer by Tuesday 6 pm. */
  const leads = [
    { received: 10, contacted: 11 }, // in time, after 1 working hour
    { received: 12, contacted: 13.5 }, // in time, 1.5
    { received: 13, contacted: 14.5 }, // in time, 1.5
    { received: 14, contacted: 16 }, // in time, 2
    { received: 16, contacted: 57 }, // late, on Wednesday at 9 am: 2 h on Monday, 10 on Tuesday, 1 on Wednesday
    { received: 11, contacted: 12, monday: starts[11]! }, // this week's: not last week's figures
    { received: 11, contacted: 60, monday: starts[9]! }, // the week before: not last week's either
  ];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'office-promise-line-'));
    const file = join(dir, 'leads.sqlite');
    const store = openSqliteStore(file);
    try {
      const references = await seedLeads(store, leads.length, {
        body: (i) => quote({ name: `Line Customer ${i}`, email: `line.${i}@example.com` }),
        receivedAt: (i) => h(leads[i]!.received, leads[i]!.monday),
        answerBy: (i) => h(42, leads[i]!.monday),
      });
      // One line of the audit trail by a colleague with a long address, naming it again in its sentence.
      reference = references[0]!;
      await store.record({ at: h(-1, starts[11]!), actor: LONG_ADDRESS, action: 'set the owner', detail: `Gave ${reference} to ${LONG_ADDRESS}.` });
      await store.close();
      // First contacts written by hand: the server measures their working minutes as it starts (decision 0027).
      const db = new DatabaseSync(file);
      const contact = db.prepare(
        "UPDATE leads SET status = 'contacted', status_by = ?, status_at = ?, first_contact_by = ?, first_contact_at = ? WHERE reference = ?",
      );
      for (const [i, lead] of leads.entries()) {
        const at = h(lead.contacted, lead.monday).toISOString();
        contact.run(STAFF.email, at, STAFF.email, at, references[i]!);
      }
      db.close();
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
    const port = await freePort();
    server = await startServer({ dir, env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, ...pictureClockEnv() } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const visitor = (view: (typeof VIEWS)[number]) =>
    offlinePage(browser, server.url, {
      viewport: { width: view.width, height: view.height },
      javaScriptEnabled: view.javaScript,
      extraHTTPHeaders: newClient(),
    });
  /** How much wider than its box `selector`'s content is (0: it fits). */
  const overflow = (page: Page, selector: string) => page.locator(selector).evaluate((el) => el.scrollWidth - el.clientWidth);
  /** The marker a sighted person sees before a summary, drawn by the style sheet. */
  const marker = (page: Page, selector: string) =>
    page.locator(selector).evaluate((el) => {
      const before = getComputedStyle(el, '::before');
      return { content: before.content, shown: before.display !== 'none' && before.visibility !== 'hidden' };
    });

  for (const view of VIEWS)
    it(`says last week's promise under the counts, names every bar and lists the newest week first, at ${view.width} px (JavaScript ${view.javaScript ? 'on' : 'off'})`, async () => {
      const { context, page } = await visitor(view);
      await signInOnPage(page, server.url);
      // One line, right under the counts: four of five in time, the median 1.5 working hours (1, 1.5, 1.5, 2 and 13).
      const line = page.locator('.promise-line');
      expect((await line.innerText()).replace(/\s+/g, ' ').trim()).toBe(
        'Last week 4 of 5 answered in time (80%); half were first contacted within 1.5 working hours. The promise, week by week',
      );
      const [counts, below] = [(await page.locator('nav.counts').last().boundingBox())!, (await line.boundingBox())!];
      expect(below.y).toBeGreaterThanOrEqual(counts.y + counts.height);
      expect(below.y).toBeLessThan(counts.y + counts.height + 40);
      expect(below.y + below.height).toBeLessThan(view.height);
      // Its link leads to the promise chart further down, on this page.
      await line.getByRole('link', { name: 'The promise, week by week' }).click();
      expect(new URL(page.url()).hash).toBe('#promise-heading');
      const section = page.getByRole('region', { name: 'Is the promise kept?' });
      expect((await page.locator('#promise-heading').boundingBox())!.y).toBeLessThan(view.height);
      // Every bar named under the axis, last week's too: its Monday's day, and the month where one starts.
      const days = starts.slice(0, -1).map((start) => String(Number(weekOf(start, ZONE).monday.slice(8))));
      for (const chart of [section.locator('svg'), page.locator('figure.week-chart').first().locator('svg')]) {
        expect(await chart.locator('text.axis-day').allTextContents()).toEqual(days);
        expect(await chart.locator('text.axis-month').allTextContents()).toEqual(['Sep', 'Oct', 'Nov']);
      }
      // The week tables, newest first, each fitting its box and the screen.
      for (const [figures, summary] of [
        [section.locator('details.chart-figures'), 'The promise, week by week'],
        [page.locator('.weeks').first().locator('details.chart-figures'), 'The figures, week by week'],
      ] as const) {
        await figures.locator('summary', { hasText: summary }).click();
        const mondays = await figures.locator('tbody th time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime')));
        expect(mondays).toEqual(
          starts
            .slice(0, -1)
            .map((start) => weekOf(start, ZONE).monday)
            .reverse(),
        );
        for (const box of ['.table-scroll', 'table'])
          expect(await figures.locator(box).evaluate((el) => el.scrollWidth - el.clientWidth), box).toBeLessThanOrEqual(0);
      }
      const [thisWeek, last] = await section
        .locator('tbody tr')
        .evaluateAll((rows) => rows.slice(0, 2).map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
      expect(thisWeek).toBe(`${weekOf(starts[11]!, ZONE).label} 1 0 0 100% 1 h`);
      expect(last).toBe(`${weekOf(lastWeek, ZONE).label} 4 1 0 80% 1 h 30 min`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      await context.close();
    });

  for (const view of VIEWS)
    it(`shows that "Filters" folds and names each button for what it does, at ${view.width} px (JavaScript ${view.javaScript ? 'on' : 'off'})`, async () => {
      const { context, page } = await visitor(view);
      await signInOnPage(page, server.url);
      const summary = 'details.more-filters > summary';
      expect(await marker(page, summary)).toEqual({ content: '"▸" / ""', shown: true });
      expect(await page.getByRole('button', { name: 'Search', exact: true }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Show', exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Apply filters' }).isVisible()).toBe(false);
      await page.locator(summary).click();
      expect(await marker(page, summary)).toEqual({ content: '"▾" / ""', shown: true });
      // The filters' own button, at their end, sends them.
      await page.getByLabel('Status', { exact: true }).selectOption('contacted');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      expect(new URL(page.url()).searchParams.get('status')).toBe('contacted');
      // Off the inbox's first page the line still links to the chart, on it.
      expect(await page.locator('.promise-line a').getAttribute('href')).toBe('/office#promise-heading');
      // The search box's button searches.
      await page.getByLabel('Name, e-mail, phone or reference').fill('Line Customer 2');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForLoadState('load');
      expect(await page.locator('li.lead .lead-name').allInnerTexts()).toEqual(['Line Customer 2']);
      await context.close();
    });

  for (const view of VIEWS.filter((v) => v.javaScript))
    it(`shows the System page's audit trail whole, no address broken inside a word, at ${view.width} px`, async () => {
      const { context, page } = await visitor(view);
      await signInOnPage(page, server.url);
      await page.goto(`${server.url}/office/system`);
      await page.getByRole('heading', { name: 'What the office did lately' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      expect(await overflow(page, 'table.audit-trail')).toBeLessThanOrEqual(0);
      // The colleague's address, in its cell and in the sentence: wrapped, if at all, before a dot or the at sign, never inside a word.
      const who = page.getByRole('cell', { name: LONG_ADDRESS, exact: true });
      const what = page.getByRole('cell', { name: `Gave ${reference} to ${LONG_ADDRESS}.`, exact: true });
      for (const cell of [who, what]) {
        expect(await cell.count()).toBe(1);
        const breaks = await cell.evaluate((el) => {
          // Where a line begins inside a word: the sign it begins with (a break at a space is none).
          const inside: string[] = [];
          let [top, before] = [undefined as number | undefined, ' '];
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode())
            for (const [i, sign] of [...node.textContent!].entries()) {
              if (sign === ' ') {
                before = sign;
                continue;
              }
              const range = document.createRange();
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              const at = Math.round(range.getBoundingClientRect().top);
              if (top !== undefined && at > top + 2 && before !== ' ') inside.push(sign);
              [top, before] = [at, sign];
            }
          return inside;
        });
        expect(breaks.filter((sign) => sign !== '.' && sign !== '@')).toEqual([]);
      }
      // On a phone, each line of the trail named by its column.
      if (view.width < 640) expect(await marker(page, 'table.audit-trail td[data-label="Who"] >> nth=0')).toEqual({ content: '"Who: " / ""', shown: true });
      await context.close();
    });
});
