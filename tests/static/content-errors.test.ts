/**
 * An editor's mistake in `content/` stops the build with one legible sentence: the file, the field,
 * the rule and what was found, not zod's internals.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, ROOT } from '../support/server.ts';

const project = mkdtempSync(join(tmpdir(), 'content-errors-'));
beforeAll(() => {
  for (const entry of ['src', 'content', 'public', 'spec', 'astro.config.mjs', 'package.json', 'tsconfig.json', 'redocly.yaml'])
    cpSync(join(ROOT, entry), join(project, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Builds the copy with `file` changed by `edit`, puts the file back, and returns what the build said. */
async function buildWith(file: string, edit: (text: string) => string): Promise<{ failed: boolean; output: string }> {
  const path = join(project, file);
  const original = readFileSync(path, 'utf8');
  writeFileSync(path, edit(original));
  try {
    return await promisify(execFile)('npm', ['run', '--silent', 'build'], { cwd: project, env: { ...childEnv(), ASTRO_TELEMETRY_DISABLED: '1' } }).then(
      () => ({ failed: false, output: '' }),
      // Colours are stripped: a terminal (or CI's FORCE_COLOR) puts escape codes inside the sentence.
      (err: { stdout: string; stderr: string }) => ({ failed: true, output: stripVTControlCharacters(`${err.stdout}${err.stderr}`) }),
    );
  } finally {
    writeFileSync(path, original);
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
});
