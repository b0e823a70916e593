/**
 * Pictures for the guides, taken by the tests so that they stay true (`docs/images/`): drawn by a
 * server whose clock is fixed (`PICTURE_CLOCK`, through `fixed-clock.mjs`) from fixed data, and
 * written only when their decoded pixels differ from the file's, so that a run that changes nothing
 * on the page changes no file, whatever the day.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './server.ts';

/** The instant every picture is drawn at: a Wednesday, 9:30 am in the office's time zone (Los Angeles). */
export const PICTURE_CLOCK = '2026-12-02T17:30:00Z';

/** What a server's environment adds for its clock to read `PICTURE_CLOCK`: still, or (`running`) going on from it. */
export const pictureClockEnv = (clock: 'still' | 'running' = 'still'): Record<string, string> => ({
  NODE_OPTIONS: `--import=${join(ROOT, 'tests/support/fixed-clock.mjs')}`,
  TEST_CLOCK_START: PICTURE_CLOCK,
  ...(clock === 'still' && { TEST_CLOCK_FROZEN: '1' }),
});

/** Whether two PNG files show the same pixels, decoded by the browser of `page` (two encoders may write the same picture differently). */
async function samePixels(page: Page, a: Buffer, b: Buffer): Promise<boolean> {
  if (a.equals(b)) return true;
  const scratch = await page.context().newPage();
  try {
    return await scratch.evaluate(
      async ([one, two]) => {
        const pixels = async (base64: string) => {
          const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const context = canvas.getContext('2d')!;
          context.drawImage(bitmap, 0, 0);
          return { width: bitmap.width, height: bitmap.height, data: context.getImageData(0, 0, bitmap.width, bitmap.height).data };
        };
        const [x, y] = [await pixels(one), await pixels(two)];
        return x.width === y.width && x.height === y.height && x.data.every((v, i) => v === y.data[i]);
      },
      [a.toString('base64'), b.toString('base64')] as const,
    );
  } finally {
    await scratch.close();
  }
}

/** Saves a PNG of `page` (the part in view, or all of it with `fullPage`) as `docs/images/<name>.png`, unless the one there shows the same pixels. */
export async function saveGuidePicture(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const file = join(ROOT, 'docs/images', `${name}.png`);
  const png = await page.screenshot({ fullPage: options.fullPage ?? false, animations: 'disabled', caret: 'hide', scale: 'css' });
  if (!existsSync(file) || !(await samePixels(page, readFileSync(file), png))) writeFileSync(file, png);
  return file;
}
