/** Headless Chromium from Debian (`/usr/bin/chromium`) driven by playwright-core; never a downloaded browser. */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Whether the browser tests can run here. In CI its absence is a failure, not a skip. */
export function chromiumAvailable(): boolean {
  const present = existsSync(CHROMIUM_PATH);
  if (!present && process.env.CI) throw new Error(`CI requires Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  if (!present) console.warn(`Chromium is not installed at ${CHROMIUM_PATH}: browser tests are skipped (apt-get install -y chromium)`);
  return present;
}

/**
 * How long Playwright waits for a page to load or an element to show before it fails: long enough
 * for a busy two-core machine; a timeout catches a hang, not a slow machine.
 */
const PATIENCE_MS = 120_000;

/** Launches headless Chromium with no background traffic of its own; its pages wait as long as a busy machine takes. */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Every context (browser.newPage's too) waits PATIENCE_MS rather than Playwright's 30 s.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(PATIENCE_MS);
    context.setDefaultNavigationTimeout(PATIENCE_MS);
    return context;
  };
  return browser;
}

/**
 * A page of a fresh context on which every request to a host other than `origin` is refused and
 * recorded (`foreign`), and every Content-Security-Policy violation reported (`cspErrors`).
 */
export async function offlinePage(browser: Browser, origin: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const foreign: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspErrors.push(msg.text());
  });
  return { context, page, foreign, cspErrors };
}

/** Taps one of a group's large choices on the quote form (bedrooms, bathrooms). */
export const chooseOn = (page: Page, group: string, choice: string) =>
  page.getByRole('group', { name: group, exact: true }).getByRole('radio', { name: choice, exact: true }).check();

/**
 * Fills the quote form as a person does: name, phone and e-mail, 3 bedrooms, `bathrooms` (2 unless
 * said), a deep clean, the `notes` if any, and the consent box. Sending it is the test's.
 */
export async function fillQuoteForm(page: Page, who: { name: string; phone: string; email: string }, options: { bathrooms?: string; notes?: string } = {}) {
  await page.getByLabel('Your name', { exact: true }).fill(who.name);
  await page.getByLabel('Phone number', { exact: true }).fill(who.phone);
  await page.getByLabel('E-mail address', { exact: true }).fill(who.email);
  await chooseOn(page, 'Bedrooms', '3');
  await chooseOn(page, 'Bathrooms', options.bathrooms ?? '2');
  await page.getByLabel('Kind of cleaning', { exact: true }).selectOption('Deep clean');
  if (options.notes !== undefined) await page.getByLabel(/^Notes about your home/).fill(options.notes);
  await page.getByLabel(/^I agree that .+ may /).check();
}
