/**
 * The faults kept (`npm run test:faults`): each `tests/faults/*.patch` is a small fault the quick
 * tests must catch. For each, a scratch copy of the project (its git-tracked files and untracked ones
 * git does not ignore; `node_modules` linked, never copied) gets the patch (`git apply`: a patch that
 * no longer applies fails the run, by name), then the quick tests of the files its header names
 * (`Caught-by: tests/…`, before the diff, where `git apply` reads nothing): `npm run test:unit --
 * <those files>` must fail, and in one of them (a failure elsewhere, a flaky test say, is no catch).
 * Two at a time (two cores). One line per fault, then `N passed, M failed`; the exit status is
 * non-zero if any fault was not caught. It assumes the quick tests pass as the project stands
 * (`.ci/run` runs `npm test` next, and a catching file that fails without its fault fails there).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const FAULTS = join(ROOT, 'tests/faults');
const AT_ONCE = 2;

/** The project's files as a clean clone plus the work in progress has them: tracked, and untracked but not ignored. */
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && file !== 'node_modules' && !file.startsWith('node_modules/'));

/** A scratch copy of the project, `node_modules` linked. */
function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fault-'));
  for (const file of new Set(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      copyFileSync(join(ROOT, file), join(dir, file));
    } catch (err) {
      // A tracked file deleted in the working tree is not part of the project as it stands.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** What is running and what is written, to end and remove if the run is stopped. */
const children = new Set<ChildProcess>();
const copies = new Set<string>();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const child of children) if (child.pid) process.kill(-child.pid, 'SIGKILL');
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  });

/** Runs `command` in `cwd`, in a process group of its own: its exit status and what it wrote. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    child.on('close', () => children.delete(child));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => done({ code: code ?? 1, output: stripVTControlCharacters(output) }));
  });
}

type Verdict = { fault: string; caught: boolean; said: string };

/** Applies `patch` to a fresh copy and runs the quick tests there. */
async function tryFault(patch: string): Promise<Verdict> {
  const fault = patch.replace(/\.patch$/, '');
  const dir = copyProject();
  copies.add(dir);
  try {
    const applied = await run('git', ['apply', join(FAULTS, patch)], dir);
    if (applied.code !== 0) return { fault, caught: false, said: `the patch no longer applies: ${applied.output.trim().split('\n')[0]}` };
    const catchers = caughtBy(patch);
    if (catchers.length === 0) return { fault, caught: false, said: 'the patch names no test that catches it (a "Caught-by: tests/…" line)' };
    const tests = await run('npm', ['run', '--silent', 'test:unit', '--', ...catchers], dir);
    if (tests.code === 0) return { fault, caught: false, said: `npm run test:unit -- ${catchers.join(' ')} passed with it` };
    if (!catchers.some((file) => new RegExp(`FAIL\\s+(?:unit\\s+)?${file.replaceAll('.', '\\.')}`).test(tests.output)))
      return { fault, caught: false, said: `the quick tests failed, but not in ${catchers.join(' or ')}` };
    // The first test that failed, as vitest names it (its file, its describe and its title), else its first failure.
    const named = /^\s*FAIL\s+(?:unit\s+)?(tests\/.+)$/m.exec(tests.output) ?? /^\s*×\s+(.+?)(?:\s+\d+ms)?$/m.exec(tests.output);
    const failed = named?.[1]?.trim() ?? 'npm run test:unit failed';
    return { fault, caught: true, said: failed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    copies.delete(dir);
  }
}

/** The test files a patch says catch its fault. */
const caughtBy = (patch: string) =>
  [
    ...readFileSync(join(FAULTS, patch), 'utf8')
      .split(/^diff --git /m)[0]!
      .matchAll(/^Caught-by:\s*(tests\/\S+\.test\.ts)\s*$/gm),
  ].map((m) => m[1]!);

const started = Date.now();
const patches = readdirSync(FAULTS)
  .filter((f) => f.endsWith('.patch'))
  .sort();
const verdicts: Verdict[] = [];
const queue = [...patches];
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let patch = queue.shift(); patch !== undefined; patch = queue.shift()) {
      const verdict = await tryFault(patch);
      verdicts.push(verdict);
      process.stdout.write(`${verdict.caught ? 'caught' : 'NOT caught'}: ${verdict.fault} (${verdict.said})\n`);
    }
  }),
);
const failed = verdicts.filter((v) => !v.caught).length;
process.stdout.write(
  `\n${patches.length} faults tried in ${Math.round((Date.now() - started) / 1000)} s\n${verdicts.length - failed} passed, ${failed} failed\n`,
);
process.exitCode = failed > 0 ? 1 : 0;
