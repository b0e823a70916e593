/**
 * A file YAML cannot read is reported where the editor made the mistake (not where the parser gave
 * up), with its column and a sentence about that kind of mistake, and the line as it could be written.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../src/content-check/check.ts';
import { syntaxMistake } from '../../src/content-check/syntax.ts';
import { ROOT } from '../support/server.ts';

const company = readFileSync(join(ROOT, 'content/company.yaml'), 'utf8');
/** The quote form's frontmatter, from the line after its opening `---` (line 2 of the file). */
const quoteFrontmatter = readFileSync(join(ROOT, 'content/forms/quote.mdx'), 'utf8').split('---\n')[1]!;
const lineOf = (text: string, part: string) => text.split('\n').findIndex((l) => l.includes(part)) + 1;

describe('a line YAML cannot read, found where the mistake is', () => {
  it('company.yaml as shipped has none', () => {
    expect(syntaxMistake(company)).toBeUndefined();
  });

  it('a missing colon: on its own line, even when the parser only stops at the next part', () => {
    const email = lineOf(company, '  email: office@example.com');
    expect(syntaxMistake(company.replace('  email: office@example.com', '  email office@example.com'))).toEqual({
      line: email,
      column: 3,
      allowed: 'must have a colon and a space after the name of the part, as name: value',
      example: 'email: office@example.com',
    });
    // YAML reads "name Example Cleaning Co." as a text going on over the comment lines: it gives up at "phone:".
    const name = lineOf(company, '  name: Example');
    expect(syntaxMistake(company.replace('  name: Example Cleaning Co.', '  name Example Cleaning Co.'))).toMatchObject({
      line: name,
      column: 3,
      example: 'name: Example Cleaning Co.',
    });
  });

  it('a bad indent: the line indented unlike its neighbours, not the line before it where the parser stops', () => {
    const email = lineOf(company, '  email: office@example.com');
    for (const [spaces, column] of [
      [3, 4],
      [1, 2],
    ] as const) {
      const mistake = syntaxMistake(company.replace('  email: office@example.com', `${' '.repeat(spaces)}email: office@example.com`));
      expect(mistake).toMatchObject({ line: email, column, example: 'email: office@example.com' });
      expect(mistake!.allowed).toMatch(new RegExp(`^must start at the same column as the line above it \\(2 spaces in, not ${spaces}\\)`));
    }
  });

  it('an unclosed quote: where the quote opens, with the line closed', () => {
    const name = lineOf(company, '  name: Example');
    expect(syntaxMistake(company.replace('  name: Example Cleaning Co.', '  name: "Example Cleaning Co.'))).toEqual({
      line: name,
      column: 9,
      allowed: 'must close the quote (") it opens, on the same line: a text in quotes starts and ends with "',
      example: 'name: "Example Cleaning Co."',
    });
  });

  it("an unclosed brace or quote in a page's frontmatter: on its own line, not on the closing ---", () => {
    const email = lineOf(quoteFrontmatter, '  email: { label: E-mail address }');
    expect(syntaxMistake(quoteFrontmatter.replace('  email: { label: E-mail address }', '  email: { label: E-mail address'), 2)).toEqual({
      line: email + 1,
      column: 10,
      allowed: 'must end with }, to match the { that opens the group on this line',
      example: 'email: { label: E-mail address }',
    });
    expect(syntaxMistake(quoteFrontmatter.replace('  email: { label: E-mail address }', '  email: { label: "E-mail address }'), 2)).toMatchObject({
      line: email + 1,
      column: 19,
      example: 'email: { label: "E-mail address" }',
    });
  });

  it('a ": " in a text without quotes: the text, to be put in double quotes', () => {
    expect(syntaxMistake('title: Terms: what you agree to\n')).toEqual({
      line: 1,
      column: 8,
      allowed: 'must have its text in double quotes: a text with ": " in it goes in double quotes',
      example: 'title: "Terms: what you agree to"',
    });
  });

  it('a list of ZIP codes over two lines is no mistake', () => {
    expect(
      syntaxMistake('towns:\n  - town: Portland\n    postalCodes: [97201, 97202,\n      97203]\n  - town: Vancouver\n    postalCodes: [98660]\n'),
    ).toBeUndefined();
  });
});

describe('what the list of mistakes tells an editor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-words-'));
  cpSync(join(ROOT, 'content'), join(dir, 'content'), { recursive: true });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("that the rest of a file is read only once its broken line can be: a fixed line may show the file's other mistakes", () => {
    writeFileSync(join(dir, 'content/company.yaml'), company.replace(/^( +)phone: (.*)$/m, '$1phone: "$2'));
    const [mistake] = checkContent(dir);
    expect(mistake).toMatchObject({ file: 'content/company.yaml' });
    expect(mistake!.allowed).toMatch(/\. The rest of content\/company\.yaml is checked once this line can be read$/);
    writeFileSync(join(dir, 'content/company.yaml'), company);
  });

  it('a word where a number belongs, as a word, with the number in digits as the example', () => {
    writeFileSync(join(dir, 'content/company.yaml'), company.replace(/workingDays: \d+/, 'workingDays: one'));
    const [mistake] = checkContent(dir);
    expect(mistake).toMatchObject({
      file: 'content/company.yaml',
      field: 'answersWithin → workingDays',
      allowed: 'must be a whole number of working days from 1 to 10, written in digits',
      example: 'workingDays: 1',
      found: 'the word "one"',
    });
    writeFileSync(join(dir, 'content/company.yaml'), company.replace(/workingDays: \d+/, 'workingDays: two days'));
    expect(checkContent(dir)[0]!.found).toBe('the words "two days"');
    writeFileSync(join(dir, 'content/company.yaml'), company);
  });
});
