/**
 * Errors where the editor looks: `npm run dev` starts on a copy of the project with a page whose
 * frontmatter YAML cannot read, and shows it in the browser; then the editor breaks three files (a
 * page's frontmatter, a fact in company.yaml, a form's words) and the page open in the browser turns
 * by itself into the list of every mistake, each with its file, line, field, rule, example and what
 * was written, in words, and back into the page once the files are fixed, with no restart. The
 * list is `docs/images/editors-error.png`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../src/content-check/check.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { copyProject, type ProjectCopy } from '../support/project-copy.ts';
import { saveGuidePicture } from '../support/screenshot.ts';
import { startDevServer, type RunningServer } from '../support/server.ts';

/** Three mistakes, each in a file of its own: what is written instead of the shipped line. */
const MISTAKES = [
  { file: 'content/terms.mdx', from: /^description: .*$/m, to: 'description: Too short.', line: 'description: Too short.' },
  { file: 'content/company.yaml', from: 'phone: (503) 555-0100', to: 'phone: 555-0100 ext 2', line: 'phone: 555-0100 ext 2' },
  { file: 'content/forms/quote.mdx', from: 'email: { label: E-mail address }', to: 'email: { hint: Where we write to you. }', line: 'email: { hint' },
];

/** The heading of the page open now, read again after the reloads the dev server asks for. */
const heading = (page: Page) =>
  page
    .locator('h1')
    .first()
    .textContent({ timeout: 2_000 })
    .catch(() => '');

/** Waits until the page, reloaded by the dev server as many times as files changed, shows `title` and has not moved for 2 s. */
async function settlesOn(page: Page, title: string): Promise<void> {
  let moved = Date.now();
  const onNavigation = () => (moved = Date.now());
  page.on('framenavigated', onNavigation);
  await expect
    .poll(async () => (await page.waitForLoadState('load').then(() => heading(page))) === title && Date.now() - moved > 2_000, {
      timeout: 300_000,
      interval: 500,
    })
    .toBe(true);
  page.off('framenavigated', onNavigation);
}

describe.skipIf(!chromiumAvailable())('npm run dev shows every content mistake in the browser, in words', () => {
  let project: ProjectCopy;
  let dev: RunningServer;
  let browser: Browser;
  const shipped = new Map<string, string>();
  beforeAll(async () => {
    project = copyProject('dev-content-errors-');
    for (const { file } of MISTAKES) shipped.set(file, readFileSync(join(project.dir, file), 'utf8'));
    // A title with ": " in it and no quotes: the YAML cannot be read. Astro alone would not start.
    project.write('content/terms.mdx', shipped.get('content/terms.mdx')!.replace(/^title: .*$/m, 'title: Terms: what you agree to'));
    [dev, browser] = await Promise.all([startDevServer({ project: project.dir }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.dispose();
    project?.dispose();
  });

  it('turns the open page into the list of all three mistakes, then back into the page once they are fixed, without a restart', async () => {
    const { context, page } = await offlinePage(browser, dev.url, { viewport: { width: 800, height: 400 } });
    await page.goto(`${dev.url}/quote`);
    // A reload of dev's own (a dependency bundled) may come after the first answer: wait until the page holds still.
    await settlesOn(page, '1 mistake in content/ to fix');
    expect((await page.locator('main li').innerText()).replace(/\n+/g, '\n')).toMatch(
      /^content\/terms\.mdx, line 2, column 8\nmust have its text in double quotes[^\n]*\nfor example\ntitle: "Terms: what you agree to"\nyou wrote\ntitle: Terms: what you agree to$/,
    );

    for (const { file, from, to } of MISTAKES) project.write(file, shipped.get(file)!.replace(from, to));
    // No reload by the test: the dev server tells the page to reload when a file changes.
    await settlesOn(page, '3 mistakes in content/ to fix');

    const items = await page.locator('main li').allInnerTexts();
    const expected = checkContent(project.dir);
    expect(items).toHaveLength(3);
    for (const [i, { file, line }] of MISTAKES.entries()) {
      const at =
        shipped
          .get(file)!
          .replace(MISTAKES[i]!.from, MISTAKES[i]!.to)
          .split('\n')
          .findIndex((l) => l.includes(line)) + 1;
      const item = items.find((text) => text.startsWith(`${file}, line ${at}`));
      expect(item, `${file}:${at} in\n${items.join('\n')}`).toBeDefined();
    }
    const text = items.join('\n');
    expect(text).toContain('content/terms.mdx, line 3: description');
    expect(text).toContain('must be a description of 20 to 200 characters');
    expect(text).toContain('you wrote\n10 characters ("Too short.")');
    expect(text).toContain('content/company.yaml, line 7: phone');
    expect(text).toContain('must be a 10-digit U.S. phone number');
    expect(text).toContain('for example\nphone: (503) 555-0100');
    expect(text).toContain('content/forms/quote.mdx, line 13: fields → email → label');
    expect(text).toContain('for example\nlabel: E-mail address');
    expect(text).toContain('you wrote\nnothing');
    // The same list as the build's (tests/static/content-errors.test.ts), and no marks nor jargon.
    expect(expected.map((m) => `${m.file}, line ${m.line}: ${m.field}`)).toEqual(items.map((t) => t.split('\n')[0]));
    expect(await page.locator('body').innerText()).not.toMatch(/\*\*|group of fields|schema|zod|Expected|invalid_type|\.\d+\./);
    await saveGuidePicture(page, 'editors-error', { fullPage: true });

    // Fixed one file after another, as an editor does: the list shrinks, then the page is back.
    for (const [i, { file }] of MISTAKES.entries()) {
      project.write(file, shipped.get(file)!);
      const left = MISTAKES.length - i - 1;
      await settlesOn(page, left === 0 ? 'Ask for a quote' : `${left} ${left === 1 ? 'mistake' : 'mistakes'} in content/ to fix`);
    }
    expect(await page.getByLabel('E-mail address', { exact: true }).isVisible()).toBe(true);
    expect(dev.child.exitCode, 'the dev server kept running').toBeNull();
    await context.close();
  });

  it('shows a file YAML cannot read, and a page whose frontmatter cannot be read, by themselves, at the line and column of the mistake', async () => {
    const { context, page } = await offlinePage(browser, dev.url, { viewport: { width: 800, height: 400 } });
    await page.goto(`${dev.url}/quote`);
    await settlesOn(page, 'Ask for a quote');
    const company = readFileSync(join(project.dir, 'content/company.yaml'), 'utf8');
    const quote = readFileSync(join(project.dir, 'content/forms/quote.mdx'), 'utf8');
    const lineOf = (text: string, part: string) => text.split('\n').findIndex((l) => l.includes(part)) + 1;

    // A missing colon in company.yaml: no reload by the test.
    project.write('content/company.yaml', company.replace('  email: office@example.com', '  email office@example.com'));
    await settlesOn(page, '1 mistake in content/ to fix');
    expect((await page.locator('main li').innerText()).replace(/\n+/g, '\n')).toBe(
      `content/company.yaml, line ${lineOf(company, '  email: office@example.com')}, column 3\n` +
        'must have a colon and a space after the name of the part, as name: value. The rest of content/company.yaml is checked once this line can be read\nfor example\nemail: office@example.com\nyou wrote\nemail office@example.com',
    );
    project.write('content/company.yaml', company);
    await settlesOn(page, 'Ask for a quote');

    // An unclosed brace in the form's frontmatter: on its own line, not on the closing ---.
    project.write('content/forms/quote.mdx', quote.replace('  email: { label: E-mail address }', '  email: { label: E-mail address'));
    await settlesOn(page, '1 mistake in content/ to fix');
    expect((await page.locator('main li').innerText()).replace(/\n+/g, '\n')).toBe(
      `content/forms/quote.mdx, line ${lineOf(quote, '  email: { label: E-mail address }')}, column 10\n` +
        'must end with }, to match the { that opens the group on this line. The rest of content/forms/quote.mdx is checked once this line can be read\nfor example\nemail: { label: E-mail address }\nyou wrote\nemail: { label: E-mail address',
    );
    project.write('content/forms/quote.mdx', quote);
    await settlesOn(page, 'Ask for a quote');
    expect(await page.getByLabel('E-mail address', { exact: true }).isVisible()).toBe(true);
    expect(dev.child.exitCode, 'the dev server kept running').toBeNull();
    await context.close();
  });
});
