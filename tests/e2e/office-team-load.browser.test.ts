/**
 * The team's load (issue 55, item 4), in headless Chromium against the built server, at 390 × 844,
 * with and without JavaScript: an owner sees each person's waiting leads (a link to that list), the
 * late ones and today's first contacts, on the inbox; staff do not; a lead an owner gives to a
 * colleague is marked for that colleague alone until they open its own page.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ID } from '../../src/office/store.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, openLead, sentLead, signInOnPage, STAFF } from '../support/office.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

const HELPER = { email: 'helper@example.com', password: 'sponge and broom 2026' } as const;
const PHONE = { width: 390, height: 844 } as const;

describe.skipIf(!chromiumAvailable())('the team’s load in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    await addUser(server.databaseUrl, HELPER.email, HELPER.password, ['--role', 'staff']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const visitor = (javaScript: boolean) => offlinePage(browser, server.url, { viewport: PHONE, javaScriptEnabled: javaScript, extraHTTPHeaders: newClient() });
  const fitsThePhone = async (page: import('playwright-core').Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  it('shows an owner each person’s load, staff none, and marks a given lead for its receiver until they open it', async () => {
    for (const [round, javaScript] of [false, true].entries()) {
      const given = await sentLead(server.url, quote({ name: `Greta Given ${round}`, email: `greta.${round}@example.com`, phone: '(503) 555-0171' }));

      // The owner gives it to the helper from its row.
      const boss = await visitor(javaScript);
      await signInOnPage(boss.page, server.url);
      await boss.page.goto(`${server.url}/office?view=all`);
      const row = await openLead(boss.page, given);
      await row.getByLabel('Who has it').selectOption({ label: HELPER.email });
      await row.getByRole('button', { name: 'Save' }).click();
      expect(await boss.page.getByRole('status').innerText()).toContain(`You gave ${given} to ${HELPER.email}.`);
      // Not marked for the one who gave it.
      expect(await boss.page.locator(`#lead-${given} .given-mark`).count()).toBe(0);

      // The load, on the inbox's first page: one row per account, the helper's waiting leads a link to that list.
      await boss.page.goto(`${server.url}/office`);
      const load = boss.page.locator('section.team-load');
      expect(await load.getByRole('heading', { name: 'The team’s load' }).isVisible()).toBe(true);
      const helperRow = load.locator('tbody tr', { hasText: HELPER.email });
      // Waiting (a given lead each round, none answered yet), late (none yet due), first contacted today (none).
      const [waiting, late, today] = (await helperRow.locator('td').allInnerTexts()).map((t) => t.trim());
      expect(waiting).toMatch(new RegExp(`^${round + 1}\\b`));
      expect([late, today]).toEqual(['0', '0']);
      expect(await helperRow.getByRole('link').getAttribute('href')).toMatch(/^\/office\?owner=[a-z2-7]{12}&status=new$/);
      expect(await load.locator('tbody th').allInnerTexts()).toEqual(['You', HELPER.email]);
      await fitsThePhone(boss.page);
      await helperRow.getByRole('link').click();
      await boss.page.getByRole('heading', { name: 'Inbox' }).waitFor();
      const address = new URL(boss.page.url()).searchParams;
      expect(address.get('owner')).toMatch(ACCOUNT_ID);
      expect(address.get('status')).toBe('new');
      expect(await boss.page.locator('li.lead', { hasText: given }).count()).toBe(1);
      await boss.context.close();

      // Staff see no load; the lead given to them is marked, in its row, until they open its own page.
      const helper = await visitor(javaScript);
      await signInOnPage(helper.page, server.url, HELPER);
      expect(await helper.page.locator('section.team-load').count()).toBe(0);
      expect(await helper.page.getByText('The team’s load').count()).toBe(0);
      await helper.page.goto(`${server.url}/office?owner=mine`);
      expect(await helper.page.locator(`#lead-${given} summary .given-mark`).innerText()).toBe(`Given to you by ${STAFF.email}`);
      expect(await helper.page.locator('p.list-order').innerText()).toContain('the most urgent first');
      await fitsThePhone(helper.page);
      await helper.page.goto(`${server.url}/office?lead=${given}`);
      await helper.page.locator(`#lead-${given}`).waitFor();
      await helper.page.goto(`${server.url}/office?owner=mine`);
      expect(await helper.page.locator(`li.lead`, { hasText: given }).count()).toBe(1);
      expect(await helper.page.locator(`#lead-${given} .given-mark`).count()).toBe(0);
      await helper.context.close();
    }
  });
});
