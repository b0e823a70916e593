/**
 * `npm run bench:phone`: the office's inbox on a phone (issue 55, item 10). For this checkout's build
 * (and each of BENCH_COMPARE's checkouts, built), a fresh store of 500 leads sent over the last two
 * weeks (a dozen people who wrote twice, three colleagues), the built service started as `npm start`
 * starts it, and Chromium at 390 × 844 under Chrome's phone-class throttling (CPU × 4, 150 ms latency,
 * 1.6 Mb/s down, 750 kb/s up) opening the inbox's first page (50 leads) after signing in. Per build,
 * the medians of BENCH_PHONE_REPEAT loads (5): the page's HTML (as sent, compressed, and as read),
 * its elements, when the first lead's row was drawn (its element timing: the name's text painted)
 * and when the page had loaded whole; the figures are reported, never asserted, and written to
 * bench/results/phone.json.
 *
 *   npm run bench:phone
 *   BENCH_COMPARE=/work/cmp-base npm run bench:phone      the build before a change, in the same run
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { seedSqliteFile } from '../../tests/support/seed.ts';
import { quote } from '../../tests/support/fixtures.ts';
import { addUser, STAFF } from '../../tests/support/office.ts';
import { CHROMIUM_PATH } from '../../tests/support/browser.ts';
import { median, ROOT, serviceArgs, serviceEnv, startProcess } from '../serve.ts';

const LEADS = 500;
const REPEAT = Number(process.env.BENCH_PHONE_REPEAT ?? 5);
const DAY = 86_400_000;
const builds = [ROOT, ...(process.env.BENCH_COMPARE?.split(',').filter(Boolean) ?? []).map((d) => resolve(d))];

interface Load {
  encodedBytes: number;
  htmlBytes: number;
  elements: number;
  firstRowMs: number;
  loadedMs: number;
}

/** One load of the inbox, throttled; the first row's name is given its element timing as it is parsed (the same on every build). */
async function loadInbox(base: string): Promise<Load> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(`${base}/office`);
    await page.getByLabel('E-mail address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await page.addInitScript(() => {
      const w = window as unknown as { firstRow?: number };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.firstRow ??= (e as PerformanceEntry & { renderTime: number }).renderTime || e.startTime;
      }).observe({ type: 'element', buffered: true });
      new MutationObserver((_, observer) => {
        const name = document.querySelector('li.lead .lead-name');
        if (name) {
          name.setAttribute('elementtiming', 'first-lead');
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${base}/office`, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as unknown as { firstRow?: number }).firstRow !== undefined, undefined, { timeout: 60_000 });
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return {
        encodedBytes: nav.encodedBodySize,
        htmlBytes: nav.decodedBodySize,
        elements: document.getElementsByTagName('*').length,
        firstRowMs: Math.round((window as unknown as { firstRow: number }).firstRow),
        loadedMs: Math.round(nav.loadEventEnd),
      };
    });
  } finally {
    await browser.close();
  }
}

async function measure(dir: string) {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-phone-'));
  try {
    const env = serviceEnv(scratch);
    const now = Date.now();
    // 500 leads of the last two weeks, a dozen people twice; each with its answer-by a working day on.
    await seedSqliteFile(join(scratch, 'leads.sqlite'), LEADS, {
      body: (i) => quote({ name: `Pat Phone ${i}`, email: `phone.${i % 488}@example.com`, phone: `503555${String(100 + (i % 488)).padStart(4, '0')}` }),
      receivedAt: (i) => new Date(now - ((i + 1) * 14 * DAY) / LEADS),
      answerBy: (i) => new Date(now - ((i + 1) * 14 * DAY) / LEADS + DAY),
    });
    for (const email of [STAFF.email, 'ann@example.com', 'bo@example.com'])
      await addUser(env.DATABASE_URL!, email, email === STAFF.email ? STAFF.password : 'another long passphrase 2026');
    const server = await startProcess(serviceArgs, { ...env, SITE_URL: '' }, join(scratch, 'server.log'), dir, { pin: false });
    try {
      const loads: Load[] = [];
      for (let i = 0; i < REPEAT; i++) loads.push(await loadInbox(server.url));
      const of = (k: keyof Load) => median(loads.map((l) => l[k]));
      return {
        build: dir === ROOT ? 'this build' : basename(dir),
        encodedKiB: of('encodedBytes') / 1024,
        htmlKiB: of('htmlBytes') / 1024,
        elements: of('elements'),
        firstRowMs: of('firstRowMs'),
        firstRowRange: [Math.min(...loads.map((l) => l.firstRowMs)), Math.max(...loads.map((l) => l.firstRowMs))],
        loadedMs: of('loadedMs'),
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const figures = [];
for (const dir of builds) figures.push(await measure(dir));
console.table(
  figures.map((f) => ({
    build: f.build,
    'HTML sent (KiB)': f.encodedKiB.toFixed(1),
    'HTML read (KiB)': f.htmlKiB.toFixed(1),
    elements: f.elements,
    'first row drawn (ms)': `${f.firstRowMs} (${f.firstRowRange.join('–')})`,
    'loaded (ms)': f.loadedMs,
  })),
);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/phone.json'), `${JSON.stringify({ leads: LEADS, repeat: REPEAT, figures }, null, 2)}\n`);
