/**
 * The company's own web forms, as a person uses them: in headless Chromium against the built
 * server, with JavaScript on and off. Every acknowledged submission is in the store with its
 * consent evidence; errors appear beside their fields; the rate limit, the spam traps, a double
 * click and a reload behave; the pages are accessible, usable by keyboard alone and fit a phone.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { REFERENCE_PATTERN } from '../../src/leads/reference.ts';
import { dateWords } from '../../src/leads/fields.ts';
import { filledAtLeisure, sentAtOnce } from '../support/form-token.ts';
import { issueFormToken } from '../../src/web-forms/token.ts';
import { chooseOn, chromiumAvailable, fillQuoteForm, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { postJson } from '../support/http.ts';
import { exportLeads, freePort, startServer, type RunningServer } from '../support/server.ts';

let counter = 0;
/** A person's answers, distinct from every other test's (example.com, 555-01xx). */
function person() {
  counter++;
  return {
    name: `Maria Lopez ${counter}`,
    phone: `(503) 555-01${String(counter % 100).padStart(2, '0')}`,
    email: `maria.lopez+${counter}.${Date.now()}@example.com`,
  };
}

describe.skipIf(!chromiumAvailable())('the web forms in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    // The site's own origin: the forms are accepted only from the origin SITE_URL names.
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** A fresh browser as a client of its own (its own rate-limit budget), refusing every request to another host. */
  function visitor(options: { javaScript?: boolean; width?: number; height?: number; client?: Record<string, string> } = {}) {
    return offlinePage(browser, server.url, {
      javaScriptEnabled: options.javaScript ?? true,
      viewport: { width: options.width ?? 1024, height: options.height ?? 900 },
      extraHTTPHeaders: options.client ?? newClient(),
    });
  }

  async function fillQuote(page: Page, who = person(), overrides: Partial<Record<'phone', string>> = {}) {
    await fillQuoteForm(page, { ...who, phone: overrides.phone ?? who.phone }, { bathrooms: '2½', notes: 'Two cats; the side door is open.' });
    return who;
  }

  async function fillContact(page: Page, who = person()) {
    await page.getByLabel('Your name', { exact: true }).fill(who.name);
    await page.getByLabel('E-mail address', { exact: true }).fill(who.email);
    await page.getByLabel('Phone number', { exact: true }).fill(who.phone);
    await page.getByLabel('What is it about?', { exact: true }).selectOption('Rescheduling a visit');
    await page.getByLabel('Your message', { exact: true }).fill('Could Friday move to Monday?');
    return who;
  }

  /** Past the minimum fill time, as a person would take: the form made to look drawn ten seconds ago (no race with a timer). */
  const asAPerson = (page: Page) => filledAtLeisure(page, server.databaseUrl);

  /** The day `n` days from today where the company is (Los Angeles), as a date box takes it. */
  const inDays = (n: number) => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
    return new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  };
  const referenceOf = async (page: Page) => (await page.locator('[data-reference]').innerText()).trim();
  const storedWith = async (email: string) => (await exportLeads(server.databaseUrl)).filter((l) => (l.fields as { email: string }).email === email);

  for (const javaScript of [true, false]) {
    const how = javaScript ? 'with JavaScript' : 'without JavaScript';

    it(`a quote request sent ${how} shows its reference, which is the stored lead with its consent evidence`, async () => {
      const { context, page, foreign, cspErrors } = await visitor({ javaScript });
      await page.goto(`${server.url}/quote`);
      expect(await page.getByLabel(/^I agree that .+ may /).isChecked(), 'the consent box starts unchecked').toBe(false);
      const who = await fillQuote(page);
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      // The next step is the sentence agents receive as whatHappensNext: the company's own promise and hours.
      expect(await page.locator('[data-result-message]').innerText()).toMatch(
        /^Thank you: your request is received\. Example Cleaning Co\. answers every request within one working day: expect to hear from the office by /,
      );
      const reference = await referenceOf(page);
      expect(reference).toMatch(REFERENCE_PATTERN);
      // The page is the answer's own: its heading and title, what was sent, and how to reach the office.
      expect(await page.locator('h1').innerText()).toBe('Request received');
      expect(await page.title()).toMatch(/^Request received · /);
      expect(await page.locator('[data-intro]:visible').count()).toBe(0);
      const sent = await page.locator('[data-sent-summary]').innerText();
      for (const shown of [who.name, who.email, '3 bedrooms', '2½', 'Deep clean']) expect(sent).toContain(shown);
      expect(await page.locator('[data-result] a[href^="tel:"]').getAttribute('href')).toBe('tel:+15035550100');
      const [lead] = await storedWith(who.email);
      expect(lead).toMatchObject({
        reference,
        formType: 'quote',
        receivedVia: '/quote',
        fields: { name: who.name, communicationsConsent: true, service: 'Deep clean' },
      });
      const consent = lead!.consent as Record<string, unknown>;
      expect(consent).toMatchObject({
        channel: 'web-form',
        communicationsConsent: true,
        pageUrl: `${server.url}/quote`,
        clientAddress: expect.stringMatching(/^2001:db8:/),
      });
      expect(consent.userAgent).toMatch(/Chrome/);
      expect(consent.serverTime).toBe(lead!.receivedAt);
      expect(lead!.disclosure).toMatchObject({ version: consent.disclosureVersion });
      expect((lead!.disclosure as { text: string }).text).toMatch(
        /^I agree that Example Cleaning Co\. may call me, text me and e-mail me about this request.*not a condition of buying anything\. Privacy notice: \/privacy$/s,
      );
      expect(foreign).toEqual([]);
      expect(cspErrors).toEqual([]);
      // The privacy notice says the forms set no cookie.
      expect(await context.cookies()).toEqual([]);
      await context.close();
    });

    it(`where and when, sent ${how}: the ZIP code said in or out of the area, the days in words, all stored as the API's members`, async () => {
      const { context, page } = await visitor({ javaScript });
      await page.goto(`${server.url}/quote`);
      const who = await fillQuote(page);
      const zip = page.getByLabel(/^ZIP code of the home/);
      await zip.fill('97201');
      const note = page.locator('[data-area-note]');
      if (javaScript) {
        expect(await note.innerText()).toBe('We clean in Portland, Oregon, at this ZIP code.');
        await zip.fill('10001');
        expect(await note.innerText()).toMatch(/^This ZIP code is outside the area we usually clean/);
      } else {
        await zip.fill('10001');
        expect(await note.isVisible()).toBe(false);
      }
      // A customer who does not know says so, in the API's one spelling.
      await chooseOn(page, 'Bathrooms', 'Not sure');
      await page.getByLabel('First choice').fill(inDays(9));
      await page.getByLabel('Second choice').fill(inDays(2));
      await page.getByLabel(/^Time of day that suits you/).selectOption('morning');
      await page.getByLabel(/^How often/).selectOption('every-two-weeks');
      await page.getByLabel(/^How should we reach you first/).selectOption('text');
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      expect(await page.locator('[data-result-message]').innerText()).toContain(
        'the home is outside the area it usually serves, so the office will say whether it can come.',
      );
      const sent = await page.locator('[data-sent-summary]').innerText();
      for (const shown of ['10001', `${dateWords(inDays(9))}, ${dateWords(inDays(2))}`, 'In the morning', 'Every two weeks', 'A text message', 'Not sure'])
        expect(sent).toContain(shown);
      const [lead] = await storedWith(who.email);
      expect(lead).toMatchObject({
        inServiceArea: false,
        fields: {
          postalCode: '10001',
          preferredDates: [inDays(9), inDays(2)],
          timeOfDay: 'morning',
          frequency: 'every-two-weeks',
          preferredContact: 'text',
          bathrooms: 'not sure',
        },
      });
      await context.close();
    });

    it(`a day in the past sent ${how} is refused beside the days, and nothing is stored`, async () => {
      const { context, page } = await visitor({ javaScript });
      await page.goto(`${server.url}/quote`);
      const who = await fillQuote(page);
      await page.getByLabel('First choice').fill(inDays(-3));
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).click();
      const error = page.locator('[data-error-for="preferredDates"]');
      await error.waitFor({ state: 'visible' });
      expect(await error.innerText()).toMatch(/Choose up to 3 different days, from today to 120 days ahead\./);
      expect(await page.getByLabel('First choice').inputValue()).toBe(inDays(-3));
      expect(await storedWith(who.email)).toEqual([]);
      await context.close();
    });

    it(`a contact message sent ${how} shows its reference, which is the stored lead`, async () => {
      const { context, page } = await visitor({ javaScript });
      await page.goto(`${server.url}/contact`);
      const who = await fillContact(page);
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my message' }).click();
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      const [lead] = await storedWith(who.email);
      expect(await referenceOf(page)).toMatch(/^C-/);
      expect(await page.locator('h1').innerText()).toBe('Message sent');
      expect(await page.locator('[data-sent-summary]').innerText()).toContain('Could Friday move to Monday?');
      expect(lead).toMatchObject({
        reference: await referenceOf(page),
        formType: 'support',
        receivedVia: '/contact',
        fields: { helpWith: 'Rescheduling a visit' },
      });
      expect(lead!.consent).toMatchObject({ channel: 'web-form', disclosureVersion: null });
      await context.close();
    });

    it(`notes past their limit sent ${how} are refused in words, kept whole in the box, and nothing is stored`, async () => {
      const { context, page } = await visitor({ javaScript });
      await page.goto(`${server.url}/quote`);
      const who = await fillQuote(page);
      const notes = 'A large house with a garden. '.repeat(180).slice(0, 5_120);
      await page.getByLabel(/Notes about your home/).fill(notes);
      expect(await page.locator('#f-notes').inputValue(), 'the box takes all of it: nothing is cut').toHaveLength(5_120);
      if (javaScript)
        expect(await page.locator('[data-counter-for="notes"]').innerText()).toBe('120 characters too many: the most is 5,000. Please shorten it.');
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-summary]').waitFor({ state: 'visible' });
      expect(await page.locator('[data-error-for="notes"]').innerText()).toContain(
        'The most is 5,000 characters, and this is 5,120. Please shorten it: nothing was cut.',
      );
      expect(await page.locator('#f-notes').inputValue()).toBe(notes);
      expect(await storedWith(who.email)).toEqual([]);
      await context.close();
    });

    it(`an invalid phone ${how}: the message beside the field, focus on the summary, what was typed kept, nothing stored`, async () => {
      const { context, page } = await visitor({ javaScript });
      await page.goto(`${server.url}/quote`);
      const who = await fillQuote(page, person(), { phone: '555-12' });
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).click();
      const summary = page.locator('[data-summary]');
      await summary.waitFor({ state: 'visible' });
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
      const phone = page.getByLabel('Phone number', { exact: true });
      expect(await phone.getAttribute('aria-invalid')).toBe('true');
      expect((await phone.getAttribute('aria-describedby'))!.split(' ')).toContain('f-phone-error');
      expect(await page.locator('#f-phone-error').innerText()).toMatch(/10-digit U\.S\. phone number/);
      expect(await summary.getByRole('link').allInnerTexts()).toEqual([expect.stringMatching(/^Phone number: .*10-digit U\.S\. phone number/)]);
      expect(await summary.getByRole('link').first().getAttribute('href')).toBe('#f-phone');
      expect(await page.getByLabel('Your name', { exact: true }).inputValue()).toBe(who.name);
      expect(await page.getByRole('group', { name: 'Bedrooms', exact: true }).getByRole('radio', { name: '3', exact: true }).isChecked()).toBe(true);
      expect(await storedWith(who.email)).toEqual([]);
      // Corrected, the same form goes through.
      await phone.fill(who.phone);
      if (!javaScript) await page.getByLabel(/^I agree that .+ may /).check();
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      expect(await storedWith(who.email)).toHaveLength(1);
      await context.close();
    });

    it(`"5+" ${how} opens a box for the exact count, which is what is sent and stored`, async () => {
      const { context, page } = await visitor({ javaScript, width: 390, height: 844 });
      await page.goto(`${server.url}/quote`);
      const who = await fillQuote(page);
      const bedrooms = page.getByLabel('How many bedrooms?');
      expect(await bedrooms.isVisible(), 'the box is closed until "5+" is chosen').toBe(false);
      await chooseOn(page, 'Bedrooms', '5+');
      await bedrooms.fill('7');
      await chooseOn(page, 'Bathrooms', '5+');
      await page.getByLabel('How many bathrooms?').fill('5.5');
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      const sent = await page.locator('[data-sent-summary]').innerText();
      for (const shown of ['7 bedrooms', '5½']) expect(sent).toContain(shown);
      const [lead] = await storedWith(who.email);
      expect(lead).toMatchObject({ fields: { bedrooms: '7', bathrooms: '5.5' } });
      await context.close();
    });

    it(`"5+" ${how} with no count: the message says to type it, "5+" stays chosen, nothing stored`, async () => {
      const { context, page } = await visitor({ javaScript });
      await page.goto(`${server.url}/quote`);
      const who = await fillQuote(page);
      await chooseOn(page, 'Bedrooms', '5+');
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-summary]').waitFor({ state: 'visible' });
      expect(await page.locator('#f-bedrooms-error [data-error-text]').innerText()).toBe('Type the number of bedrooms, from 5 to 20.');
      expect(await page.locator('[data-summary] a').allInnerTexts()).toEqual(['Bedrooms: Type the number of bedrooms, from 5 to 20.']);
      expect(await page.getByRole('group', { name: 'Bedrooms', exact: true }).getByRole('radio', { name: '5+' }).isChecked()).toBe(true);
      expect(await page.getByLabel('How many bedrooms?').isVisible()).toBe(true);
      expect(await storedWith(who.email)).toEqual([]);
      await context.close();
    });

    it(`an empty form sent ${how}: the summary names each field, in the page's order, and each line leads to its field`, async () => {
      const { context, page } = await visitor({ javaScript });
      await page.goto(`${server.url}/quote`);
      await page.getByRole('button', { name: 'Send my request' }).click();
      const links = page.locator('[data-summary] a');
      await page.locator('[data-summary]').waitFor({ state: 'visible' });
      expect((await links.allInnerTexts()).map((line) => line.split(':')[0])).toEqual([
        'Your name',
        'Phone number',
        'E-mail address',
        'Bedrooms',
        'Bathrooms',
        'Kind of cleaning',
        'Permission to contact you',
      ]);
      await links.filter({ hasText: /^Bathrooms: / }).click();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('bathrooms');
      await context.close();
    });

    it(`a double click ${how}, and a reload of the answer, store one lead`, async () => {
      const { context, page } = await visitor({ javaScript });
      await page.goto(`${server.url}/quote`);
      const who = await fillQuote(page);
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).dblclick();
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      const reference = await referenceOf(page);
      if (!javaScript) {
        // Reloading the answer sends the same form again: the same reference comes back.
        page.once('dialog', (dialog) => void dialog.accept());
        await page.reload();
        expect(await referenceOf(page)).toBe(reference);
      }
      expect((await storedWith(who.email)).map((l) => l.reference)).toEqual([reference]);
      await context.close();
    });
  }

  /** The element that has the focus; a browser gives it to an `autofocus` element once the page is drawn, so tests poll it. */
  const focusedTag = (page: Page) => () => page.evaluate(() => document.activeElement?.tagName ?? '');
  /** `true` when the element is wholly within the page's viewport as it is drawn now; else where it is, for the failure's message. */
  const inView = (page: Page, selector: string) =>
    page.locator(selector).evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth && box.height > 0
        ? true
        : JSON.stringify({ top: box.top, bottom: box.bottom, left: box.left, right: box.right, innerHeight, innerWidth, scrollY });
    });

  for (const [device, width, height] of [
    ['a 390 × 844 phone', 390, 844],
    ['a 1280 × 800 laptop', 1280, 800],
  ] as const) {
    for (const javaScript of [true, false]) {
      const how = javaScript ? 'with JavaScript' : 'without JavaScript';

      it(`on ${device} ${how}, the confirmation is in view, focused, and has an address of its own that shows it again`, async () => {
        const { context, page } = await visitor({ javaScript, width, height });
        await page.goto(`${server.url}/quote`);
        await fillQuote(page);
        await asAPerson(page);
        await page.getByRole('button', { name: 'Send my request' }).click();
        await page.locator('[data-result]').waitFor({ state: 'visible' });
        const reference = await referenceOf(page);
        await expect.poll(focusedTag(page)).toBe('H1');
        expect(await inView(page, 'h1'), 'the heading is in view').toBe(true);
        expect(await inView(page, '[data-reference]'), 'the reference is in view').toBe(true);
        expect(await page.locator('[data-reference]').evaluate((element) => getComputedStyle(element).whiteSpace)).toBe('nowrap');
        const address = `/quote?received=${reference}`;
        expect(await page.locator('[data-confirmation-link]').getAttribute('href')).toBe(address);
        // With JavaScript the address bar holds the confirmation's address, so a reload shows it again.
        if (javaScript) expect(page.url()).toBe(`${server.url}${address}`);
        else await page.goto(`${server.url}${address}`);
        if (javaScript) await page.reload();
        expect(await page.locator('h1').innerText()).toBe('Request received');
        expect(await referenceOf(page)).toBe(reference);
        expect(await page.locator('[data-result-message]').innerText()).toBe(
          'This page confirms the request sent with this reference. Example Cleaning Co. answers every request within one working day.',
        );
        // Nothing of what was sent: the address carries the reference only, and the page reads no store.
        expect(await page.locator('[data-sent]').isVisible()).toBe(false);
        expect(await page.locator('form[data-web-form]').isVisible()).toBe(false);
        await expect.poll(focusedTag(page)).toBe('H1');
        await context.close();
      });
    }
  }

  for (const path of ['/quote', '/contact']) {
    it(`${path} on a 390 × 844 phone: every tap target is 44 × 44 px at least (a link inside a sentence keeps its line's height)`, async () => {
      const { context, page } = await visitor({ width: 390, height: 844 });
      await page.goto(`${server.url}${path}`);
      await page.getByRole('button', { name: /Send my/ }).click();
      await page.locator('[data-summary]').waitFor({ state: 'visible' });
      const small = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('a, button, input, select, textarea')].flatMap((target) => {
          const own = target.getBoundingClientRect();
          if (own.width === 0 || getComputedStyle(target).visibility === 'hidden' || target.closest('[hidden], .trap')) return [];
          const parent = target.parentElement!;
          if (
            target.tagName === 'A' &&
            /^(P|LI)$/.test(parent.tagName) &&
            parent.textContent!.trim() !== target.textContent!.trim() &&
            target.closest('main, .site-footer section > p:not(.links)')
          )
            return [];
          // A box or a choice is tapped through its label too.
          const labels = (target as HTMLInputElement).labels ? [...(target as HTMLInputElement).labels!] : [];
          const boxes = [own, ...labels.map((l) => l.getBoundingClientRect())];
          const fits = boxes.some((b) => b.width >= 44 && b.height >= 44);
          return fits
            ? []
            : [
                `${target.tagName} ${target.id || target.getAttribute('href') || target.textContent!.trim()} ${Math.round(own.width)}×${Math.round(own.height)}`,
              ];
        }),
      );
      expect(small).toEqual([]);
      await context.close();
    });
  }

  it('the reference is copied with one tap, and the Copy button shows only where the browser can copy', async () => {
    const { context, page } = await visitor({ javaScript: true, width: 390, height: 844 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(`${server.url}/quote?received=Q-P7RH-Q4`);
    const copy = page.getByRole('button', { name: 'Copy' });
    const box = (await copy.boundingBox())!;
    expect(Math.min(box.width, box.height), 'a tap target of 44 px at least').toBeGreaterThanOrEqual(44);
    await copy.click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Q-P7RH-Q4');
    expect(await page.locator('[data-copy-reference]').innerText()).toBe('Copied');
    await context.close();
    const plain = await visitor({ javaScript: false });
    await plain.page.goto(`${server.url}/quote?received=Q-P7RH-Q4`);
    expect(await plain.page.locator('[data-copy-reference]').isVisible()).toBe(false);
    await plain.context.close();
  });

  for (const [path, carried] of [
    ['/quote', 'maria.lopez@example.com'],
    ['/quote', 'C-P7RH-Q4'],
    ['/contact', 'Q-P7RH-Q4'],
    ['/quote', 'Q-P7RH-Q4<script>'],
  ] as const) {
    it(`${path}?received=${carried} is not a confirmation of that form: the plain form is shown`, async () => {
      const { context, page } = await visitor({ javaScript: false });
      const response = await page.goto(`${server.url}${path}?received=${encodeURIComponent(carried)}`);
      expect(response!.status()).toBe(200);
      expect(await page.locator('form[data-web-form]').isVisible()).toBe(true);
      expect(await page.locator('[data-result]').isVisible()).toBe(false);
      expect(await page.content()).not.toContain(carried);
      await context.close();
    });
  }

  it('the same request sent again from a fresh form is answered with the reference the office already has', async () => {
    const { context, page } = await visitor();
    const who = person();
    const references: string[] = [];
    for (let i = 0; i < 2; i++) {
      await page.goto(`${server.url}/quote`);
      await fillQuote(page, who);
      await asAPerson(page);
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      references.push(await referenceOf(page));
    }
    expect(references[1]).toBe(references[0]);
    expect(await page.locator('[data-result]').innerText()).toMatch(/already has this request/);
    expect(await storedWith(who.email)).toHaveLength(1);
    await context.close();
  });

  it('with JavaScript, a consent wording changed since the page was drawn is shown, unticked, and only what was shown is recorded', async () => {
    const { context, page } = await visitor({ javaScript: true });
    await page.goto(`${server.url}/quote`);
    const who = await fillQuote(page);
    // The page of an earlier deployment: its wording and the version its token names.
    const db = new DatabaseSync(server.databaseUrl.slice('file:'.length), { readOnly: true });
    const key = Buffer.from((db.prepare("SELECT value FROM secrets WHERE name = 'web-form-token'").get() as { value: Uint8Array }).value);
    db.close();
    const oldToken = issueFormToken(key, 'quote', 'a-retired-version', Date.now() - 60_000);
    await page.locator('input[name="formToken"]').evaluate((input: HTMLInputElement, token) => (input.value = token), oldToken);
    await page.locator('label[for="f-communicationsConsent"]').evaluate((label) => (label.textContent = 'Old wording the company no longer uses.'));
    await page.getByRole('button', { name: 'Send my request' }).click();
    await page.locator('[data-summary]').waitFor({ state: 'visible' });
    expect(await page.locator('[data-summary-message]').innerText()).toMatch(/wording of this form changed/);
    const box = page.locator('#f-communicationsConsent');
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('label[for="f-communicationsConsent"]').innerText()).toMatch(/^I agree that Example Cleaning Co\. may call me/);
    expect(await storedWith(who.email)).toEqual([]);
    await box.check();
    await page.getByRole('button', { name: 'Send my request' }).click();
    await page.locator('[data-result]').waitFor({ state: 'visible' });
    const [lead] = await storedWith(who.email);
    expect((lead!.consent as { disclosureVersion: string }).disclosureVersion).not.toBe('a-retired-version');
    expect((lead!.disclosure as { text: string }).text).toMatch(/^I agree that Example Cleaning Co\. may call me/);
    await context.close();
  });

  it("shares the API's rate limit: after 9 API submissions and one form, the 11th in a minute gets the rate-limit message", async () => {
    const client = newClient();
    // Both forms filled first, so that the eleven submissions fall within one minute however slow the browser.
    const { context, page } = await visitor({ client });
    const second = await context.newPage();
    for (const form of [page, second]) {
      await form.goto(`${server.url}/quote`);
      await fillQuote(form);
      await asAPerson(form);
    }
    for (let i = 0; i < 9; i++) expect((await postJson(`${server.url}/api/v1/leads`, quote(), client)).status).toBe(201);
    await page.getByRole('button', { name: 'Send my request' }).click();
    await page.locator('[data-result]').waitFor({ state: 'visible' });
    await second.getByRole('button', { name: 'Send my request' }).click();
    await second.locator('[data-summary]').waitFor({ state: 'visible' });
    expect(await second.locator('[data-summary-message]').innerText()).toMatch(/Too many requests.*Nothing was saved.*try again in \d+ seconds/);
    await context.close();
  });

  for (const [trap, act] of [
    [
      'the hidden field',
      async (page: Page) => {
        await asAPerson(page);
        await page.locator('#f-website').evaluate((input: HTMLInputElement) => (input.value = 'https://spam.example.com'));
      },
    ],
    ['the minimum fill time', (page: Page) => sentAtOnce(page, server.databaseUrl)],
  ] as const) {
    it(`a submission caught by ${trap} is answered like a success, kept as suspected spam and not as a lead; the log counts it`, async () => {
      const { context, page } = await visitor();
      await page.goto(`${server.url}/quote`);
      const who = await fillQuote(page);
      await act(page);
      const before = server.logs.filter((l) => l.includes('caught by a spam trap')).length;
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-result]').waitFor({ state: 'visible' });
      const reference = await referenceOf(page);
      expect(reference).toMatch(REFERENCE_PATTERN);
      expect(await storedWith(who.email)).toEqual([]);
      // Kept aside under the reference the sender was shown, for the office to release if a person was caught.
      const db = new DatabaseSync(server.databaseUrl.replace(/^file:/, ''), { readOnly: true });
      const kept = db.prepare('SELECT reference FROM suspected_spam WHERE email_normalised = ?').all(who.email.toLowerCase());
      db.close();
      expect(kept).toEqual([{ reference }]);
      // The log is written asynchronously: wait for the line.
      await expect.poll(() => server.logs.filter((l) => l.includes('caught by a spam trap')).length).toBe(before + 1);
      const caught = server.logs.filter((l) => l.includes('caught by a spam trap'));
      expect(caught.at(-1)).not.toContain(who.email);
      await context.close();
    });
  }

  it('can be filled in and sent with the keyboard alone, and the hidden field is never reached', async () => {
    const { context, page } = await visitor();
    await page.goto(`${server.url}/quote`);
    const who = person();
    await page.getByLabel('Your name', { exact: true }).focus();
    const visited: string[] = [];
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    const type = async (text: string) => {
      const id = await focused();
      visited.push(id);
      await page.keyboard.type(text);
      // A date box takes a Tab per part (month, day, year) before the next field.
      for (let i = 0; i < 4 && (await focused()) === id; i++) await page.keyboard.press('Tab');
    };
    /** Into a group of choices with Tab, along it with the arrow keys (each one chosen as it is reached), out with Tab. */
    const pick = async (arrows: number) => {
      visited.push(await focused());
      for (let i = 0; i < arrows; i++) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Tab');
    };
    await type(who.name);
    await type(who.phone);
    await type(who.email);
    await type('97201'); // ZIP code (optional)
    await pick(3); // Bedrooms: Studio, 1, 2, 3
    await pick(2); // Bathrooms: 1, 1½, 2
    await type('D'); // Kind of cleaning: "Deep clean"
    for (let box = 0; box < 3; box++) await type(''); // the days: left empty
    for (let box = 0; box < 2; box++) await type(''); // the window of days: left empty
    await type('I'); // Time of day: "In the morning"
    await type('E'); // How often: "Every week"
    for (let box = 0; box < 3; box++) await pick(0); // the ways we may reach them: a box each, left ticked
    await type('A'); // How to reach first: "A phone call"
    await type('Gate code 4242');
    visited.push(await page.evaluate(() => document.activeElement?.id ?? ''));
    await page.keyboard.press('Space'); // the consent box
    await page.keyboard.press('Tab'); // the privacy link
    await page.keyboard.press('Tab'); // the button
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send my request');
    expect(visited).toEqual([
      'f-name',
      'f-phone',
      'f-email',
      'f-postalCode',
      'f-bedrooms',
      'f-bathrooms',
      'f-service',
      'f-preferredDates',
      'f-preferredDates-2',
      'f-preferredDates-3',
      'f-preferredWindow',
      'f-preferredWindow-2',
      'f-timeOfDay',
      'f-frequency',
      'f-allowedContact',
      'f-allowedContact-2',
      'f-allowedContact-3',
      'f-preferredContact',
      'f-notes',
      'f-communicationsConsent',
    ]);
    await asAPerson(page);
    await page.keyboard.press('Enter');
    await page.locator('[data-result]').waitFor({ state: 'visible' });
    const [lead] = await storedWith(who.email);
    expect(lead).toMatchObject({
      inServiceArea: true,
      fields: { postalCode: '97201', bedrooms: '3', bathrooms: '2', service: 'Deep clean', timeOfDay: 'morning', frequency: 'weekly' },
    });
    expect(lead!.fields).not.toHaveProperty('preferredDates');
    await context.close();
  });

  for (const path of ['/quote', '/contact']) {
    it(`${path}: axe-core finds no violation, before and after an error, and the page fits a 360 px screen`, async () => {
      const { context, page, cspErrors } = await visitor({ width: 360 });
      await page.goto(`${server.url}${path}`);
      const check = async () => {
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      };
      await check();
      await page.getByRole('button', { name: /Send my/ }).click();
      await page.locator('[data-summary]').waitFor({ state: 'visible' });
      await check();
      expect(cspErrors).toEqual([]);
      await context.close();
    });
  }

  // A field's error goes as soon as the field is right (issue 53). Without JavaScript each Send draws
  // the page again, so its errors are always those of the last Send.
  const errorOf = (page: Page, field: string) => page.locator(`[data-error-for="${field}"]`);
  const summary = (page: Page) => page.locator('[data-summary]');
  const send = async (page: Page) => {
    await asAPerson(page);
    await page.getByRole('button', { name: 'Send my request' }).click();
  };

  it('on a phone with JavaScript, a field’s error goes from beside it and from the summary as soon as it is put right, and not before', async () => {
    const { context, page } = await visitor({ width: 390, height: 844 });
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

  it('the home page and /developers link the forms, and the navigation has them', async () => {
    const { context, page } = await visitor();
    for (const path of ['/', '/developers']) {
      await page.goto(`${server.url}${path}`);
      expect(await page.locator('main a[href="/quote"]').count(), path).toBeGreaterThan(0);
      expect(await page.locator('main a[href="/contact"]').count(), path).toBeGreaterThan(0);
      expect(await page.locator('nav a[href="/quote"]').count(), path).toBe(1);
    }
    await context.close();
  });
});
