/**
 * The customer's word on the company's forms (issue 54), on a phone (390 × 844) in headless
 * Chromium against the built server, with JavaScript and without: the quote form asks the ways we
 * may reach the person, all ticked at first; its consent follows the ticks (or says "the ways ticked
 * above"), and the lead keeps the sentence with the ways sent; none ticked sends nothing; the
 * contact form takes a limit, and each answer repeats it as the customer's own; the quote form takes
 * a window of days.
 */
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowWords } from '../../src/leads/fields.ts';
import { filledAtLeisure } from '../support/form-token.ts';
import { chromiumAvailable, fillQuoteForm, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient } from '../support/fixtures.ts';
import { exportLeads, freePort, startServer, type RunningServer } from '../support/server.ts';

let counter = 0;
/** A person's answers, distinct from every other test's (example.com, 555-01xx). */
function person() {
  counter++;
  return { name: `Rita Renter ${counter}`, phone: `(503) 555-01${String(counter % 100).padStart(2, '0')}`, email: `rita+${counter}.${Date.now()}@example.com` };
}

describe.skipIf(!chromiumAvailable())("the customer's word on the forms, on a phone", () => {
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

  const visitor = (javaScript: boolean) =>
    offlinePage(browser, server.url, { javaScriptEnabled: javaScript, viewport: { width: 390, height: 844 }, extraHTTPHeaders: newClient() });
  const ways = (page: Page, group: string) => page.getByRole('group', { name: group, exact: true });
  const box = (page: Page, group: string, way: RegExp) => ways(page, group).getByRole('checkbox', { name: way });
  const consentLabel = (page: Page) => page.locator('label[for="f-communicationsConsent"]');
  const storedWith = async (email: string) => (await exportLeads(server.databaseUrl)).filter((l) => (l.fields as { email: string }).email === email);
  /** The day `n` days from today where the company is (Los Angeles), as a date box takes it. */
  const inDays = (n: number) => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
    return new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  };
  const send = async (page: Page, button: string) => {
    await filledAtLeisure(page, server.databaseUrl);
    await page.getByRole('button', { name: button }).click();
  };

  for (const javaScript of [true, false]) {
    const how = javaScript ? 'with JavaScript' : 'without JavaScript';

    it(`the quote form's consent names the ways ticked and is kept as shown, ${how}`, async () => {
      const { context, page } = await visitor(javaScript);
      await page.goto(`${server.url}/quote`);
      for (const way of [/Phone calls/, /Text messages/, /E-mail/]) expect(await box(page, 'How may we reach you?', way).isChecked()).toBe(true);
      expect(await consentLabel(page).innerText()).toMatch(
        javaScript
          ? /^I agree that Example Cleaning Co\. may call me, text me and e-mail me about this request/
          : /may contact me in the ways ticked above about/,
      );
      const who = person();
      await fillQuoteForm(page, who);
      // "Texts or e-mail, no calls."
      await box(page, 'How may we reach you?', /Phone calls/).uncheck();
      if (javaScript) expect(await consentLabel(page).innerText()).toMatch(/^I agree that Example Cleaning Co\. may text me and e-mail me about this request/);
      await send(page, 'Send my request');
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      expect(await page.locator('[data-result-message]').innerText()).toContain('expect to hear from the office by text or e-mail, as you asked, by ');
      expect(await page.locator('[data-sent-summary]').innerText()).toContain('Text messages, E-mail');
      const [lead] = await storedWith(who.email);
      expect(lead?.fields).toMatchObject({ allowedContact: ['text', 'email'] });
      expect(lead?.consent).toMatchObject({ ways: ['text', 'email'] });
      expect((lead?.disclosure as { text: string }).text).toMatch(/^I agree that Example Cleaning Co\. may text me and e-mail me about this request, /);
      await context.close();
    });

    it(`the quote form with no way ticked says to choose one and sends nothing, ${how}`, async () => {
      const { context, page } = await visitor(javaScript);
      await page.goto(`${server.url}/quote`);
      const who = person();
      await fillQuoteForm(page, who);
      for (const way of [/Phone calls/, /Text messages/, /E-mail/]) await box(page, 'How may we reach you?', way).uncheck();
      await send(page, 'Send my request');
      await page.locator('[data-summary]').waitFor({ state: 'visible' });
      expect(await page.locator('[data-summary-list]').innerText()).toContain('How may we reach you?: Choose at least one way we may reach you.');
      expect(await page.locator('[data-error-for="allowedContact"]').innerText()).toContain('Choose at least one way we may reach you.');
      expect(await storedWith(who.email)).toEqual([]);
      await context.close();
    });

    it(`the quote form takes a window of days, said in words and kept as the API's member, ${how}`, async () => {
      const { context, page } = await visitor(javaScript);
      await page.goto(`${server.url}/quote`);
      const who = person();
      await fillQuoteForm(page, who);
      const [from, to] = [inDays(16), inDays(19)];
      const window = page.getByRole('group', { name: /^Or a window of days/ });
      await window.getByLabel('First day').fill(from);
      await window.getByLabel('Last day').fill(to);
      await send(page, 'Send my request');
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      expect(await page.locator('[data-sent-summary]').innerText()).toContain(windowWords(from, to));
      const [lead] = await storedWith(who.email);
      expect(lead?.fields).toMatchObject({ preferredWindow: { from, to } });
      await context.close();
    });

    it(`the contact form takes a limit and a first way, and its answer says them, ${how}`, async () => {
      const { context, page } = await visitor(javaScript);
      await page.goto(`${server.url}/contact`);
      const who = person();
      await page.getByLabel('Your name', { exact: true }).fill(who.name);
      await page.getByLabel('E-mail address', { exact: true }).fill(who.email);
      await page.getByLabel('Phone number', { exact: true }).fill(who.phone);
      await page.getByLabel('What is it about?', { exact: true }).selectOption('Rescheduling a visit');
      await page.getByLabel('Your message', { exact: true }).fill('Friday to Monday, and add the oven, please. Text me back, do not call.');
      // "Text me back, don't call."
      await box(page, 'How may we answer?', /Phone calls/).uncheck();
      await box(page, 'How may we answer?', /E-mail/).uncheck();
      await page.getByLabel('How should we answer first?', { exact: false }).selectOption('text');
      await send(page, 'Send my message');
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      expect(await page.locator('[data-result-message]').innerText()).toContain('expect to hear from the office by text only, as you asked, by ');
      const [lead] = await storedWith(who.email);
      expect(lead).toMatchObject({ formType: 'support', fields: { allowedContact: ['text'], preferredContact: 'text' } });
      await context.close();
    });
  }
});
