/**
 * Pictures for the guides, taken by the tests so that they stay true (`docs/images/`): written only
 * when what the browser shows has changed, so that a run that changes nothing changes no file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './server.ts';

/** Saves a PNG of `page` (the part in view, or all of it with `fullPage`) as `docs/images/<name>.png`, if it differs from the one there. */
export async function saveGuidePicture(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const file = join(ROOT, 'docs/images', `${name}.png`);
  const png = await page.screenshot({ fullPage: options.fullPage ?? false, animations: 'disabled', caret: 'hide', scale: 'css' });
  if (!existsSync(file) || !readFileSync(file).equals(png)) writeFileSync(file, png);
  return file;
}
