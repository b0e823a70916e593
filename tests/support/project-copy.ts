/**
 * A copy of the project, to build with content an editor changed (the sources, `content/` and the
 * build's settings; `node_modules` linked, not copied). `startServer({ project: copy.dir })` serves
 * what it built.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { childEnv, ROOT } from './server.ts';

export interface ProjectCopy {
  dir: string;
  /** Writes `text` to `file` (a path inside the project, such as `content/trust.yaml`). */
  write(file: string, text: string): void;
  /** Runs `npm run build` in the copy: whether it failed, and what it said (without colours) if so. */
  build(): Promise<{ failed: boolean; output: string }>;
  dispose(): void;
}

export function copyProject(prefix: string): ProjectCopy {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const entry of ['src', 'content', 'public', 'spec', 'astro.config.mjs', 'package.json', 'tsconfig.json', 'redocly.yaml'])
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    write: (file, text) => writeFileSync(join(dir, file), text),
    build: () =>
      promisify(execFile)('npm', ['run', '--silent', 'build'], { cwd: dir, env: { ...childEnv(), ASTRO_TELEMETRY_DISABLED: '1' } }).then(
        () => ({ failed: false, output: '' }),
        // Colours are stripped: a terminal (or CI's FORCE_COLOR) puts escape codes inside the sentence.
        (err: { stdout: string; stderr: string }) => ({ failed: true, output: stripVTControlCharacters(`${err.stdout}${err.stderr}`) }),
      ),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
