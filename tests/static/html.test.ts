/**
 * Every page is valid HTML (html-validate's recommended rules), Redoc's generated page aside: the
 * prerendered ones as built, and the web forms as the built server renders them, fresh and
 * answering a submission with errors.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, startServer } from '../support/server.ts';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'api-docs' ? [] : htmlFiles(join(dir, e.name))) : e.name.endsWith('.html') ? [join(dir, e.name)] : [],
  );
}

/** html-validate's verdict on `files`: undefined when valid, its report otherwise. */
const validate = (files: string[]) =>
  promisify(execFile)('npx', ['--no-install', 'html-validate', '--formatter', 'text', ...files], { cwd: ROOT }).then(
    () => undefined,
    (err: { stdout?: string; stderr?: string; message: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}` || err.message,
  );

const scratch = mkdtempSync(join(tmpdir(), 'html-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('pages', () => {
  it('built pages pass html-validate', async () => {
    const files = htmlFiles(join(ROOT, 'dist/client'));
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(await validate(files)).toBeUndefined();
  });

  it('the web forms pass html-validate, fresh and answering a submission with errors', async () => {
    const server = await startServer();
    try {
      const files: string[] = [];
      for (const path of ['/quote', '/contact']) {
        const fresh = await (await fetch(`${server.url}${path}`)).text();
        const formToken = /name="formToken" value="([^"]+)"/.exec(fresh)![1]!;
        const action = path === '/quote' ? 'submitQuote' : 'submitContact';
        const answered = await fetch(`${server.url}${path}?_action=${action}`, {
          method: 'POST',
          headers: { Origin: 'http://localhost:4321' },
          body: new URLSearchParams({ name: 'Jane', phone: '12', email: 'x', formToken }),
        });
        expect(answered.status).toBe(422);
        for (const [name, html] of [
          ['fresh', fresh],
          ['errors', await answered.text()],
        ] as const) {
          const file = join(scratch, `${path.slice(1)}-${name}.html`);
          writeFileSync(file, html);
          files.push(file);
        }
      }
      expect(await validate(files)).toBeUndefined();
    } finally {
      await server.dispose();
    }
  });
});
