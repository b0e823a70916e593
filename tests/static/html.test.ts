/** Every prerendered page is valid HTML (html-validate's recommended rules), Redoc's generated page aside. */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'api-docs' ? [] : htmlFiles(join(dir, e.name))) : e.name.endsWith('.html') ? [join(dir, e.name)] : [],
  );
}

describe('built pages', () => {
  it('pass html-validate', async () => {
    const files = htmlFiles(join(ROOT, 'dist/client'));
    expect(files.length).toBeGreaterThanOrEqual(6);
    const result = await promisify(execFile)('npx', ['--no-install', 'html-validate', '--formatter', 'text', ...files], { cwd: ROOT }).catch((err: { stdout: string }) => ({ stdout: err.stdout, failed: true }));
    expect('failed' in result ? result.stdout : '').toBe('');
  }, 60_000);
});
