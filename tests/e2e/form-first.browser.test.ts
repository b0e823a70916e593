/**
 * The form first: on a 390 × 844 phone, the quote and contact forms' first field is in the top half
 * of the first screen (the office's phone and hours and "About us" come after the form), and a link
 * of the error summary brings its field into view with the field's label and its message, with
 * JavaScript on and off.
 */
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient } from '../support/fixtures.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { filledAtLeisure } from '../support/form-token.ts';

const PHONE = { width: 390, height: 844 };

/** Where the label (or a group's legend), the message and the control of field `id` are, against the window. */
const placeOf = (page: Page, id: string) =>
  page.evaluate((id) => {
    const control = document.getElementById(id)!;
    const field = control.closest<HTMLElement>('[data-field], fieldset')!;
    const box = (e: Element | null) => {
      const r = e!.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
    };
    return {
      label: box(field.querySelector('legend') ?? field.querySelector(`label[for="${id}"]`)),
      message: box(field.querySelector('[data-error-for]:not([hidden])')),
      control: box(control),
      height: innerHeight,
    };
  }, id);

describe.skipIf(!chromiumAvailable())('the form first, on a phone', () => {
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

  for (const javaScript of [true, false])
    for (const path of ['/quote', '/contact'])
      it(`${path}, JavaScript ${javaScript ? 'on' : 'off'}: the first field in the top half of the first screen; each error's link shows its label and message`, async () => {
        const { context, page } = await offlinePage(browser, server.url, { javaScriptEnabled: javaScript, viewport: PHONE, extraHTTPHeaders: newClient() });
        await page.goto(`${server.url}${path}`);
        const first = (await page.locator('form :is(input, select, textarea):not([type=hidden])').first().boundingBox())!;
        expect(first.y + first.height, 'the first field ends in the top half of the screen').toBeLessThanOrEqual(PHONE.height / 2);
        // What came before the form on a phone is still on the page, after it.
        expect(await page.locator('form ~ [data-intro] .office-hours').count()).toBe(1);

        // Sent empty (after the time a person takes): every required field is in the error summary.
        await filledAtLeisure(page, server.databaseUrl);
        await page.locator('form [type=submit]').click();
        await page.locator('[data-summary]:not([hidden]) [data-summary-list] a').first().waitFor();
        const links = await page.locator('[data-summary-list] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
        expect(links.length).toBeGreaterThanOrEqual(4);
        for (const href of links) {
          await page.locator(`[data-summary-list] a[href="${href}"]`).click();
          await expect.poll(() => page.evaluate(() => location.hash)).toBe(href);
          const { label, message, control, height } = await placeOf(page, href.slice(1));
          for (const [what, box] of Object.entries({ label, message, control }))
            expect(box.top >= 0 && box.bottom <= height, `${href}: its ${what} in view (${JSON.stringify(box)})`).toBe(true);
        }
        await context.close();
      });
});
