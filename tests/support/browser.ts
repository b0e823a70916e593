/** Headless Chromium from Debian (`/usr/bin/chromium`) driven by playwright-core; never a downloaded browser. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Whether the browser tests can run here. In CI its absence is a failure, not a skip. */
export function chromiumAvailable(): boolean {
  const present = existsSync(CHROMIUM_PATH);
  if (!present && process.env.CI) throw new Error(`CI requires Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  if (!present) console.warn(`Chromium is not installed at ${CHROMIUM_PATH}: browser tests are skipped (apt-get install -y chromium)`);
  return present;
}

/** Launches headless Chromium with no background traffic of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
