/**
 * A field's error goes as soon as the person has put the field right (issue 53), on a phone with
 * JavaScript: the error beside it, its `aria-invalid` and its line in the summary, whose count follows;
 * an edit that is still wrong keeps it; the summary goes with the last error, and Send then works.
 * Without JavaScript each Send draws the page again, so its errors are always those of the last Send.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, fillQuoteForm, launchChromium, offlinePage } from '../support/browser.ts';
import { filledAtLeisure } from '../support/form-token.ts';
import { newClient } from '../support/fixtures.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

describe.skipIf(!chromiumAvailable())('a form field’s error, once the field is right', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const errorOf = (page: Page, field: string) => page.locator(`[data-error-for="${field}"]`);
  const summary = (page: Page) => page.locator('[data-summary]');
  const send = async (page: Page) => {
    await filledAtLeisure(page, server.databaseUrl);
    await page.getByRole('button', { name: 'Send my request' }).click();
  };

  it('goes from beside the field and from the summary as the person corrects it, and not before', async () => {
    const { context, page } = await offlinePage(browser, server.url, { viewport: { width: 390, height: 844 }, extraHTTPHeaders: newClient() });
    await page.goto(`${server.url}/quote`);
    await fillQuoteForm(page, { name: 'Rosa Field', phone: '555-0101', email: 'rosa.field.example.com' });
    await send(page);
    await summary(page).waitFor({ state: 'visible' });
    expect(await summary(page).locator('[data-summary-message]').innerText()).toMatch(/^2 answers need your attention/);
    const email = page.getByLabel('E-mail address', { exact: true });
    const phone = page.getByLabel('Phone number', { exact: true });
    expect(await errorOf(page, 'email').isVisible()).toBe(true);
    expect(await errorOf(page, 'phone').isVisible()).toBe(true);

    // Still wrong as typed: the error stays.
    await email.fill('rosa.field@');
    expect(await errorOf(page, 'email').isVisible()).toBe(true);
    expect(await email.getAttribute('aria-invalid')).toBe('true');

    // Right: its error, its aria-invalid and its line go at once; the other stays, counted.
    await email.fill('rosa.field@example.com');
    await expect.poll(() => errorOf(page, 'email').isVisible()).toBe(false);
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    expect((await email.getAttribute('aria-describedby')) ?? '').not.toContain('f-email-error');
    expect(await summary(page).locator('[data-summary-list] li').allInnerTexts()).toEqual([expect.stringContaining('Phone number')]);
    expect(await summary(page).locator('[data-summary-message]').innerText()).toMatch(/^One answer needs your attention/);
    expect(await errorOf(page, 'phone').isVisible()).toBe(true);

    // The last one put right: the summary goes too, and Send takes the request.
    await phone.fill('(503) 555-0101');
    await expect.poll(() => errorOf(page, 'phone').isVisible()).toBe(false);
    expect(await summary(page).isVisible()).toBe(false);
    await send(page);
    await page.locator('[data-result]').waitFor({ state: 'visible' });
    await context.close();
  });
});
