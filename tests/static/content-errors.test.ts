/**
 * An editor's mistakes in `content/` stop the build, all of them at once, each with its file, line,
 * field, rule, example and what was written, in words: the same list `npm run dev` shows in the
 * browser (`tests/e2e/dev-content-errors.browser.test.ts`), and no zod internals.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../src/content-check/check.ts';
import { mistakesText } from '../../src/content-check/report.ts';
import { copyProject, type ProjectCopy } from '../support/project-copy.ts';

let project: ProjectCopy;
beforeAll(() => {
  project = copyProject('content-errors-');
});
afterAll(() => project?.dispose());

/** Builds the copy with each file changed by its edit, puts the files back, and returns what the build said, and the list for the same files. */
async function buildWith(edits: Record<string, (text: string) => string>) {
  const originals = Object.keys(edits).map((file) => [file, readFileSync(join(project.dir, file), 'utf8')] as const);
  for (const [file, text] of originals) project.write(file, edits[file]!(text));
  try {
    return { ...(await project.build()), list: mistakesText(checkContent(project.dir)) };
  } finally {
    for (const [file, text] of originals) project.write(file, text);
  }
}

describe("an editor's mistakes stop the build, all at once, in words", () => {
  it('lists every mistake of five files, each with its file, line, field, rule, example and what was written', async () => {
    const build = await buildWith({
      'content/forms/quote.mdx': (s) => s.replace('email: { label: E-mail address }', 'email: { hint: Where we write to you. }'),
      'content/terms.mdx': (s) => s.replace(/^description: .*$/m, 'description: Too short.'),
      'content/privacy.mdx': (s) => s.replace(/^updated: .*$/m, 'updated: 22/11/2026'),
      'content/company.yaml': (s) =>
        s
          .replace('phone: (503) 555-0100', 'phone: 555-0100 ext 2')
          .replace('{ days: Saturday, opens: 9 am', '{ days: Saturday to, opens: 9 am')
          .replace('{ date: 2026-12-25, name: Christmas Day }', '{ date: 2026-02-30, name: Christmas Day }'),
      'content/trust.yaml': (s) =>
        `${s}  licenseAndInsurance: Licensed in Oregon (CCB #000000) and insured.\n  reviews:\n    - date: 2026-10-12\n      text: The team was on time and careful with our floors.\n    - name: Sam K.\n      text: Friendly, quick and thorough.\n      stars: 5\n`,
    });
    expect(build.failed).toBe(true);
    // The build's list is the browser's: one function of the same files.
    expect(build.output).toContain(build.list);
    expect(build.list).toMatch(/^10 mistakes in content\/ to fix/);
    for (const paragraph of [
      'content/forms/quote.mdx, line 13: fields → email → label\n  must be a label of 2 to 60 characters\n  for example: label: E-mail address\n  you wrote: nothing',
      'content/terms.mdx, line 3: description\n  must be a description of 20 to 200 characters',
      '  you wrote: 10 characters ("Too short.")',
      'content/privacy.mdx, line 4: updated\n  must be a date written YYYY-MM-DD\n  for example: updated: 2026-11-22\n  you wrote: 10 characters ("22/11/2026")',
      'content/company.yaml, line 7: phone\n  must be a 10-digit U.S. phone number\n  for example: phone: (503) 555-0100',
      'content/company.yaml, line 14: hours → line 2\n  must have days that are a day or a range, such as Saturday',
      '  you wrote: { days: Saturday to, opens: 9 am, closes: 1 pm }',
      'content/company.yaml, line 32: closedDays → day 2 → date\n  must be a day the calendar has: a month from 01 to 12, and a day that month has\n  for example: date: 2026-11-26\n  you wrote: the date 2026-02-30',
      "reviews → review 1 → name\n  must be the reviewer's name as they agreed to show it\n  for example: name: Maria L.\n  you wrote: nothing",
      'reviews → review 2 → date\n  must be the day the review was written, as YYYY-MM-DD\n  for example: date: 2026-10-12',
      'reviews → review 2 → stars\n  has no part named "stars": the parts are name, date, town and text',
      'licenseAndInsurance\n  must end with a full stop; if it stops short, a "#" in it started a comment: put the whole text in double quotes',
    ])
      expect(build.list).toContain(paragraph);
    expect(build.output).not.toMatch(/\*\*|group of fields|invalid_type|Expected |\w\.\d+\.\w/);
  });

  it('names a line YAML cannot read, and a misspelt part', async () => {
    const build = await buildWith({
      'content/company.yaml': (s) => s.replace('  email: office@example.com', '  email: office@example.com\n emial: x'),
      'content/index.mdx': (s) => s.replace(/^title: /m, 'titel: '),
    });
    expect(build.failed).toBe(true);
    expect(build.output).toContain(build.list);
    expect(build.list).toMatch(/content\/company\.yaml, line 9, column 2\n {2}must start at the same column as the line above it \(2 spaces in, not 1\)/);
    expect(build.list).toContain('content/index.mdx, line 2: title\n  must be a title of 3 to 80 characters');
    expect(build.list).toContain('content/index.mdx, line 2: titel\n  has no part named "titel": the parts are title, description, updated and nav');
  });

  it('a range of prices written backwards and a size misspelt are refused in words', async () => {
    const build = await buildWith({
      'content/forms/quote.mdx': (s) =>
        s
          .replace('  Deep clean: { studio: 160 to 220,', '  Deep clean: { studio: 220 to 160,')
          .replace('  Standard clean: { studio:', '  Standard clean: { Studio:'),
    });
    expect(build.failed).toBe(true);
    expect(build.output).toContain(build.list);
    for (const paragraph of [
      'line 42: prices → Deep clean → studio\n  must be a range of whole dollars, the smaller first\n  for example: studio: 130 to 180\n  you wrote: 10 characters ("220 to 160")',
      'line 41: prices → Standard clean → Studio\n  has no part named "Studio": the parts are studio, 1, 2, 3, 4 and 5+',
    ])
      expect(build.list).toContain(paragraph);
  });

  it('a price for a cleaning the form does not offer names the cleanings it does', async () => {
    const build = await buildWith({ 'content/forms/quote.mdx': (s) => s.replace(/^prices:\n/m, 'prices:\n  Window clean: { 1: 60 to 90 }\n') });
    expect(build.failed).toBe(true);
    expect(build.output).toContain(build.list);
    expect(build.list).toContain(
      'line 41: prices → Window clean\n  must be a cleaning of the list under services, written as it is there (Standard clean; Deep clean; Move-in / move-out clean; ',
    );
    expect(build.list).toContain('  you wrote: 12 characters ("Window clean")');
  });
});
