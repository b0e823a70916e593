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
    // Exit status 0 is the verdict; on failure the report is shown.
    const failure = await promisify(execFile)('npx', ['--no-install', 'html-validate', '--formatter', 'text', ...files], { cwd: ROOT }).then(
      () => undefined,
      (err: { stdout?: string; stderr?: string; message: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}` || err.message,
    );
    expect(failure).toBeUndefined();
  }, 60_000);
});
