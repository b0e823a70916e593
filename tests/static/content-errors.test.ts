/**
 * An editor's mistake in `content/` stops the build with one legible sentence: the file, the field,
 * the rule and what was found, not zod's internals.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, type ProjectCopy } from '../support/project-copy.ts';

let project: ProjectCopy;
beforeAll(() => {
  project = copyProject('content-errors-');
});
afterAll(() => project?.dispose());

/** Builds the copy with `file` changed by `edit`, puts the file back, and returns what the build said. */
async function buildWith(file: string, edit: (text: string) => string): Promise<{ failed: boolean; output: string }> {
  const original = readFileSync(join(project.dir, file), 'utf8');
  project.write(file, edit(original));
  try {
    return await project.build();
  } finally {
    project.write(file, original);
  }
}

describe("an editor's mistake stops the build, named in words", () => {
  it('a missing label names the form, the field and the rule', async () => {
    const build = await buildWith('content/forms/quote.mdx', (s) => s.replace('email: { label: E-mail address }', 'email: { hint: Where we write to you. }'));
    expect(build.failed).toBe(true);
    expect(build.output).toContain('fields.email.label: must be a label of 2 to 60 characters; found nothing');
    expect(build.output).toMatch(/content\/forms\/quote\.mdx/);
  }, 120_000);

  it('a description too short names the page, the rule and what was found', async () => {
    const build = await buildWith('content/terms.mdx', (s) => s.replace(/^description: .*$/m, 'description: Too short.'));
    expect(build.failed).toBe(true);
    expect(build.output).toContain('description: must be a description of 20 to 200 characters; found 10 characters ("Too short.")');
    expect(build.output).toMatch(/content\/terms\.mdx/);
    expect(build.output).not.toMatch(/description: description/);
  }, 120_000);

  it('a date written 22/11/2026 asks for YYYY-MM-DD', async () => {
    const build = await buildWith('content/privacy.mdx', (s) => s.replace(/^updated: .*$/m, 'updated: 22/11/2026'));
    expect(build.failed).toBe(true);
    expect(build.output).toContain('updated: must be a date written YYYY-MM-DD, such as 2026-11-22; found 10 characters ("22/11/2026")');
    expect(build.output).toMatch(/content\/privacy\.mdx/);
  }, 120_000);

  it("a company phone that is not a U.S. number is refused in the company's words", async () => {
    const build = await buildWith('content/company.yaml', (s) => s.replace('phone: (503) 555-0100', 'phone: 555-0100 ext 2'));
    expect(build.failed).toBe(true);
    expect(build.output).toContain('phone: must be a 10-digit U.S. phone number, such as (503) 555-0100');
  }, 120_000);

  it('a review without a name or a date, a part misspelt and a sentence a "#" cut short are refused in words', async () => {
    const build = await buildWith(
      'content/trust.yaml',
      (s) =>
        `${s}  licenseAndInsurance: Licensed in Oregon (CCB #000000) and insured.\n  reviews:\n    - date: 2026-10-12\n      text: The team was on time and careful with our floors.\n    - name: Sam K.\n      text: Friendly, quick and thorough.\n      stars: 5\n`,
    );
    expect(build.failed).toBe(true);
    expect(build.output).toContain("reviews.0.name: must be the reviewer's name as they agreed to show it, such as Maria L.; found nothing");
    expect(build.output).toContain('reviews.1.date: must be the day the review was written, as YYYY-MM-DD, such as 2026-10-12; found nothing');
    expect(build.output).toContain('reviews.1: has no part named "stars": the parts are name, date, town and text');
    expect(build.output).toContain(
      'licenseAndInsurance: must end with a full stop; if it stops short, a "#" in it started a comment: put the whole text in double quotes',
    );
    expect(build.output).toMatch(/content\/trust\.yaml/);
  }, 120_000);

  it('a range of prices written backwards and a size misspelt are refused in words', async () => {
    const build = await buildWith('content/forms/quote.mdx', (s) =>
      s
        .replace('  Deep clean: { studio: 160 to 220,', '  Deep clean: { studio: 220 to 160,')
        .replace('  Standard clean: { studio:', '  Standard clean: { Studio:'),
    );
    expect(build.failed).toBe(true);
    expect(build.output).toContain(
      'prices.Deep clean.studio: must be a range of whole dollars, the smaller first, such as 130 to 180; found 10 characters ("220 to 160")',
    );
    expect(build.output).toContain('prices.Standard clean: has no part named "Studio": the parts are studio, 1, 2, 3, 4 and 5+');
    expect(build.output).toMatch(/content\/forms\/quote\.mdx/);
  }, 120_000);

  it('a price for a cleaning the form does not offer names the cleanings it does', async () => {
    const build = await buildWith('content/forms/quote.mdx', (s) => s.replace(/^prices:\n/m, 'prices:\n  Window clean: { 1: 60 to 90 }\n'));
    expect(build.failed).toBe(true);
    expect(build.output).toContain(
      'prices.Window clean: must be a cleaning of the list under services, written as it is there (Standard clean; Deep clean; Move-in / move-out clean; ',
    );
    expect(build.output).toContain('found "Window clean"');
  }, 120_000);
});
