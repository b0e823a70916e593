/**
 * The inbox at a glance, in headless Chromium against the built server on the embedded store, with
 * and without JavaScript, on a 390 px phone and a laptop: a compact list (a fifth of the height a
 * lead took before, each line a tap target that opens the lead in place, every action one or two
 * taps away), 50 leads a page with "Showing 51–100 of 130" and newer and older links that keep the
 * filters, the counts by status at the top as links that filter, and the chart of the last twelve
 * weeks drawn on the server as SVG with its figures in words and in a table.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { addUser, openLead, showFilters, STAFF } from '../support/office.ts';
import { seedLeads } from '../support/seed.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { chartWeeks, weekStarts } from '../../src/office/overview.ts';
import { localDateInput, parseLocalDate } from '../../src/office/local-time.ts';

const ZONE = 'America/Los_Angeles';
const DAY = 86_400_000;
/**
 * The height of one lead in the inbox before the compact list (commit 3113a05), measured in this
 * Chromium with its bottom margin: a quote request and a contact message, at 390 and 1024 px.
 */
const BEFORE = { 390: { quote: 789, support: 591 }, 1024: { quote: 615, support: 391 } } as const;

describe.skipIf(!chromiumAvailable())('the inbox at a glance in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const now = new Date();
  /** When each seeded lead came: 100 quotes for a deep clean in the last minutes, 20 contact messages three weeks ago, 10 standard cleans five weeks ago. */
  const deep = (i: number) => new Date(now.getTime() - (i + 1) * 1_000);
  const received: Date[] = [];
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    // Stored beside the running server, as another instance would: the same file, with times of the past.
    const store = openSqliteStore(server.databaseUrl.replace(/^file:/, ''));
    try {
      const at = (ms: number) => new Date(now.getTime() - ms);
      const refs = await seedLeads(store, 100, { body: (i) => quote({ name: `Paige Pager ${i}`, service: 'Deep clean' }), receivedAt: deep });
      await seedLeads(store, 20, { body: (i) => contact({ name: `Connie Contact ${i}` }), receivedAt: (i) => at(21 * DAY + i * 60_000) });
      await seedLeads(store, 10, {
        body: (i) => quote({ name: `Stan Standard ${i}`, service: 'Standard clean' }),
        receivedAt: (i) => at(35 * DAY + i * 60_000),
      });
      received.push(...Array.from({ length: 100 }, (_, i) => deep(i)));
      const audit = (detail: string) => () => ({ at: now, actor: STAFF.email, action: 'set a status' as const, detail });
      for (const ref of refs.slice(0, 5)) await store.setStatus(ref, 'done', STAFF.email, now, audit(`Changed ${ref} from New to Done.`));
      for (const ref of refs.slice(5, 8)) await store.setStatus(ref, 'contacted', STAFF.email, now, audit(`Changed ${ref} from New to Contacted.`));
    } finally {
      await store.close();
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const visitor = (options: { width: number; javaScript: boolean }) =>
    offlinePage(browser, server.url, {
      viewport: { width: options.width, height: 900 },
      javaScriptEnabled: options.javaScript,
      extraHTTPHeaders: newClient(),
    });

  async function signIn(page: Page) {
    await page.goto(`${server.url}/office`);
    await page.getByLabel('E-mail address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // The whole page, not its first part: a hundred leads of one phone make each row long.
    await page.waitForLoadState('load');
  }

  /** The height an element takes on the page (its box and its bottom margin), and its box's. */
  const heights = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height + parseFloat(getComputedStyle(e).marginBottom)));
  // Measured once the page and its stylesheet have loaded (a click's navigation may still be under way on a busy machine).
  const boxHeights = async (page: Page, selector: string) => {
    await page.waitForLoadState('load');
    return page.locator(selector).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  };
  // Read once the page a tap opened has loaded whole: its list arrives after the line above it.
  const showing = async (page: Page) => (await page.waitForLoadState('load'), (await page.locator('.showing').innerText()).trim());
  const names = async (page: Page) => (await page.waitForLoadState('load'), (await page.locator('li.lead .lead-name').allInnerTexts()).map((t) => t.trim()));
  const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  const VIEWS = [
    { width: 390, javaScript: false },
    { width: 390, javaScript: true },
    { width: 1024, javaScript: false },
    { width: 1024, javaScript: true },
  ] as const;

  it('lists each lead in a fifth of the height it took, its line a tap target that opens it in place with every action', async () => {
    for (const options of VIEWS) {
      const { context, page } = await visitor(options);
      await signIn(page);
      const rows = page.locator('li.lead.compact');
      expect(await rows.count()).toBe(50);
      // The first page holds quotes alone (the newest); the last page holds contact messages, measured there.
      for (const [form, path] of [
        ['quote', '/office?view=all'],
        ['support', '/office?form=support'],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        // The customer's one-tap links (issue 55) are a line of their own under the row's: the row's line keeps to its fifth, the links to one line.
        const measured = await heights(page, 'li.lead.compact > details');
        expect(Math.max(...(await boxHeights(page, 'li.lead.compact > .reach-row')))).toBeLessThanOrEqual(56);
        expect(measured.length, path).toBeGreaterThan(0);
        const limit = BEFORE[options.width][form] / 5;
        expect(Math.max(...measured), `${form} at ${JSON.stringify(options)}: ${measured.slice(0, 3).join(', ')}`).toBeLessThanOrEqual(limit);
        // Each line is one tap target, at least 44 px high.
        expect(Math.min(...(await boxHeights(page, 'li.lead.compact > details > summary')))).toBeGreaterThanOrEqual(44);
      }
      // One tap opens a lead in place: how to reach them, what they wrote, its status, who has it, its notes.
      await page.goto(`${server.url}/office?view=all`);
      const folded = page.locator('li.lead.compact', { hasText: 'Paige Pager 20' }).first();
      expect(await folded.getByLabel('Status').isVisible()).toBe(false);
      // Its whole part comes in place (with JavaScript), or on the lead's own page (without).
      const row = await openLead(page, (await folded.locator('.ref').innerText()).trim());
      for (const target of [
        row.getByLabel('Status'),
        row.getByLabel('Who has it'),
        row.getByRole('button', { name: 'Save' }),
        row.locator('.lead-open a[href^="tel:"]'),
      ]) {
        expect(await target.isVisible()).toBe(true);
        expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      }
      expect(await row.innerText()).toContain('Two cats; please use the side door.');
      // The note's box is in the same form, in sight.
      expect(await row.getByLabel(/^Note of the call/).isVisible()).toBe(true);
      expect(await fits(page)).toBeLessThanOrEqual(options.width);
      await context.close();
    }
  });

  it('pages 50 at a time, says which it shows of how many, and keeps the filters on newer and older pages', async () => {
    for (const options of [VIEWS[0], VIEWS[3]]) {
      const { context, page } = await visitor(options);
      await signIn(page);
      // Every lead, newest first, one tap from the waiting ones the inbox opens on.
      await page.getByRole('link', { name: 'Every lead, newest first' }).click();
      expect(await showing(page)).toBe('Showing 1–50 of 130 leads.');
      expect(await page.getByRole('link', { name: 'Newer leads' }).count()).toBe(0);
      // Quote requests only: 110, over three pages, each keeping the filter.
      await showFilters(page);
      await page.getByLabel('Form').selectOption('quote');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      expect(await showing(page)).toBe('Showing 1–50 of 110 leads.');
      await page.getByRole('link', { name: 'Older leads' }).first().click();
      expect(await showing(page)).toBe('Showing 51–100 of 110 leads.');
      expect(new URL(page.url()).searchParams.get('form')).toBe('quote');
      expect(await names(page)).toEqual(Array.from({ length: 50 }, (_, i) => `Paige Pager ${50 + i}`));
      await page.getByRole('link', { name: 'Older leads' }).first().click();
      expect(await showing(page)).toBe('Showing 101–110 of 110 leads.');
      expect(await names(page)).toEqual(Array.from({ length: 10 }, (_, i) => `Stan Standard ${i}`));
      expect(await page.getByRole('link', { name: 'Older leads' }).count()).toBe(0);
      expect(await page.getByLabel('Form').inputValue()).toBe('quote');
      await page.getByRole('link', { name: 'Newer leads' }).first().click();
      expect(await showing(page)).toBe('Showing 51–100 of 110 leads.');
      // A search is kept too (by its handle), with the status.
      await page.goto(`${server.url}/office`);
      await page.getByLabel('Name, e-mail, phone or reference').fill('paige pager');
      await showFilters(page);
      await page.locator('#status').selectOption('new');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      expect(await showing(page)).toBe('Showing 1–50 of 92 leads.');
      await page.getByRole('link', { name: 'Older leads' }).first().click();
      expect(await showing(page)).toBe('Showing 51–92 of 92 leads.');
      expect(await page.getByLabel('Name, e-mail, phone or reference').inputValue()).toBe('paige pager');
      expect(new URL(page.url()).searchParams.get('status')).toBe('new');
      expect((await names(page)).every((n) => n.startsWith('Paige Pager'))).toBe(true);
      // The page links are tap targets too.
      expect(Math.min(...(await boxHeights(page, '.pages a')))).toBeGreaterThanOrEqual(44);
      expect(await fits(page)).toBeLessThanOrEqual(options.width);
      await context.close();
    }
  });

  it('counts the leads by status and those that came in today at the top, each a link that filters', async () => {
    const startOfToday = parseLocalDate(localDateInput(new Date(), ZONE), ZONE)!;
    const today = received.filter((at) => at >= startOfToday).length;
    for (const options of [VIEWS[0], VIEWS[3]]) {
      const { context, page } = await visitor(options);
      await signIn(page);
      const counts = page.getByRole('navigation', { name: 'Leads by status' });
      expect((await counts.getByRole('link').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
        '122 new',
        '3 contacted',
        '5 done',
        `${today} came in today`,
      ]);
      // Leads seeded straight into the store have no answer-by time: none of them is late or due, all wait "later".
      const waiting = page.getByRole('navigation', { name: 'Waiting leads by urgency' });
      const groups = (await waiting.getByRole('link').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      expect(groups).toEqual(['0 late', '0 due today', expect.stringMatching(/^0 due (tomorrow|Mon|Tue|Wed|Thu|Fri|Sat|Sun)$/), '122 later']);
      expect(Math.min(...(await boxHeights(page, '.counts a')))).toBeGreaterThanOrEqual(44);
      await counts.getByRole('link', { name: '5 done' }).click();
      expect(new URL(page.url()).searchParams.get('status')).toBe('done');
      expect(await showing(page)).toBe('Showing all 5 leads.');
      expect(await page.getByRole('link', { name: '5 done' }).getAttribute('aria-current')).toBe('page');
      // A count opens its list with the filters folded: the list, not the filter panel, comes first.
      expect(await page.locator('details.more-filters').getAttribute('open')).toBeNull();
      expect(await names(page)).toEqual(['Paige Pager 0', 'Paige Pager 1', 'Paige Pager 2', 'Paige Pager 3', 'Paige Pager 4']);
      await page.getByRole('link', { name: '3 contacted' }).click();
      expect(await names(page)).toEqual(['Paige Pager 5', 'Paige Pager 6', 'Paige Pager 7']);
      await page.getByRole('link', { name: /came in today$/ }).click();
      await page.waitForLoadState('load');
      expect(await page.locator('li.lead.compact').count()).toBe(Math.min(50, today));
      // A search looks for one customer: the counts stay out of its way (and out of its time).
      await page.getByLabel('Name, e-mail, phone or reference').fill('Paige Pager 42');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      expect(await names(page)).toEqual(['Paige Pager 42']);
      expect(await page.getByRole('navigation', { name: 'Leads by status' }).count()).toBe(0);
      await context.close();
    }
  });

  it('draws leads per week for twelve weeks by form and service on the server, with its figures in words and in a table', async () => {
    const weeks = weekStarts(now, ZONE);
    const labels = chartWeeks(weeks, [], [], ZONE).map((w) => w.label);
    const weekOf = (at: Date) => weeks.findIndex((start, i) => at >= start && at < weeks[i + 1]!);
    // What each week should hold: every seeded lead, by its week in the office's time zone.
    const expected = new Map<number, { deep: number; standard: number; contact: number }>();
    const add = (at: Date, what: 'deep' | 'standard' | 'contact') => {
      const week = weekOf(at);
      const counts = expected.get(week) ?? { deep: 0, standard: 0, contact: 0 };
      counts[what]++;
      expected.set(week, counts);
    };
    for (let i = 0; i < 100; i++) add(deep(i), 'deep');
    for (let i = 0; i < 20; i++) add(new Date(now.getTime() - 21 * DAY - i * 60_000), 'contact');
    for (let i = 0; i < 10; i++) add(new Date(now.getTime() - 35 * DAY - i * 60_000), 'standard');
    for (const options of [VIEWS[0], VIEWS[3]]) {
      const { context, page } = await visitor(options);
      await signIn(page);
      const chart = page.locator('figure.week-chart');
      // Drawn as SVG on the server: there without any script, each week's total written on it.
      const svg = chart.locator('svg[role="img"]').first();
      expect(await svg.isVisible()).toBe(true);
      expect(await svg.locator('rect').count()).toBeGreaterThanOrEqual(expected.size);
      const box = (await svg.boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(options.width);
      expect(box.height).toBeGreaterThan(100);
      expect(await svg.locator('title').first().textContent()).toBe('Leads per week, the last 12 weeks');
      const desc = (await svg.locator('desc').textContent())!;
      expect(desc).toContain('130 leads in all.');
      for (const [week, c] of expected) expect(desc).toContain(`Week of ${labels[week]}: ${c.deep + c.standard + c.contact}`);
      // The table says every figure, by service and form.
      await chart.getByText('The figures, week by week').click();
      const table = chart.getByRole('table', { name: 'Leads per week, by form and service' });
      const header = (await table.locator('thead th').allInnerTexts()).map((t) => t.trim());
      expect(header).toEqual([
        'Week of',
        'Standard clean',
        'Deep clean',
        'Move-in / move-out clean',
        'Regular clean',
        'Post-renovation clean',
        'Another service',
        'Contact messages',
        'All',
      ]);
      const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c as HTMLElement).innerText.trim())));
      expect(rows).toHaveLength(12);
      // The newest week first.
      expect(rows.map((r) => r[0])).toEqual([...labels].reverse());
      rows.forEach((r, row) => {
        const week = rows.length - 1 - row;
        const c = expected.get(week) ?? { deep: 0, standard: 0, contact: 0 };
        expect(r.slice(1), labels[week]).toEqual([c.standard, c.deep, 0, 0, 0, 0, c.contact, c.deep + c.standard + c.contact].map(String));
      });
      expect(await fits(page)).toBeLessThanOrEqual(options.width);
      // Only on the first page of every lead: a search, a filter or an older page lists leads alone.
      for (const path of ['/office?page=1', '/office?form=quote', '/office?status=new'])
        expect(await page.goto(`${server.url}${path}`).then(() => page.locator('figure.week-chart').count()), path).toBe(0);
      await context.close();
    }
  });
});
