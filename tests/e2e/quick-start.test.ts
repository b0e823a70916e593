/**
 * The README's quick start, followed on a clean copy of the project command by command as it is
 * written, as a newcomer pastes it: the first command installs, builds and starts, and is stopped
 * with Ctrl+C once the site answers; then docs/office.md's backup and restore for the default
 * layout, on what that start stored.
 *
 * The copy is what a clone holds: the files git tracks, nothing the working tree has besides
 * (no dist/, no data/, no caches). Its node_modules is the project's, hard-linked file by file,
 * so that `npm install` finds everything the lockfile names already there instead of fetching
 * 500 MB: it then does what it does in a clone that was installed before, checks the tree,
 * writes its own record and runs the postinstall. Faithful enough for what this test proves: the
 * commands, as written, run in this order from tracked files alone, the install is quiet, and the
 * site they start answers. It does not prove that a first install from the registry succeeds
 * (downloads, the `node` package's own Node): CI's `npm install` on a clean clone does (`.ci/run`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, matchesGlob } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote } from '../support/fixtures.ts';
import { postJson } from '../support/http.ts';
import { codeBlocks, firstAccount, quickStart } from '../support/markdown.ts';
import { officePost } from '../support/office.ts';
import { childEnv, freePort, ROOT } from '../support/server.ts';

const copy = mkdtempSync(join(tmpdir(), 'quick-start-'));

/** What the project's node_modules holds that an install does not: build caches, absent from a fresh install. */
const CACHES = new Set(['.astro', '.vite', '.vite-temp', '.vitest-cache']);

/**
 * A newcomer's environment: none of the service's settings, and none of what an outer npm or npx
 * (`npm test` itself) adds, whose PATH would put the project's own pinned Node first and whose
 * `npm_*` variables would point a nested npm at the project rather than at the copy.
 */
function newcomer(): Record<string, string | undefined> {
  const settings =
    /^(SITE_URL|HOST|PORT|DATABASE_URL|REDIS_URL|TRUST_PROXY|BACKUP_.*|SMTP_URL|OFFICE_EMAIL|MAIL_FROM|LOG_LEVEL|LOG_FORMAT|LEADS_.*|SQLITE_.*|INIT_CWD|npm_.*)$/i;
  const env = Object.fromEntries(Object.entries(childEnv()).filter(([name]) => !settings.test(name)));
  env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => !/node_modules[/\\]\.bin$|node-gyp-bin$/.test(dir))
    .join(':');
  return env;
}

/** Runs a command line as a person at a shell would, in the copy; resolves with its exit code and output. */
function shell(command: string, env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd: copy, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

beforeAll(() => {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    // A file deleted in the working tree but not yet in git is not part of the project any more.
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  const modules = realpathSync(join(ROOT, 'node_modules'));
  const linked = readdirSync(modules).filter((name) => !CACHES.has(name) && name !== '.package-lock.json');
  mkdirSync(join(copy, 'node_modules'));
  execFileSync('cp', ['-al', ...linked.map((name) => join(modules, name)), join(copy, 'node_modules')]);
  // npm rewrites its record of the tree in place: a hard link would write through to the project's.
  copyFileSync(join(modules, '.package-lock.json'), join(copy, 'node_modules', '.package-lock.json'));
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("the README's quick start, on a clean copy", () => {
  const { run, test } = quickStart();
  let port: number;

  it('installs quietly, builds and starts on the embedded default, answers, and stops on Ctrl+C', async () => {
    port = await freePort();
    const started: ChildProcess = spawn('sh', ['-c', run], {
      cwd: copy,
      // Its own process group, as a terminal's foreground job: Ctrl+C reaches sh, npm and the server alike.
      detached: true,
      env: { ...newcomer(), PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    started.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    let ended = false;
    void exited.then(() => (ended = true));
    try {
      let status = 0;
      for (let i = 0; i < 1_200 && status !== 200 && !ended; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        status = await fetch(`http://localhost:${port}/api/v1`).then(
          (r) => r.status,
          () => 0,
        );
      }
      expect(status, output).toBe(200);

      // The install says one line, and nothing that reads like a failure on an older machine Node.
      expect(output).toMatch(/^Installed\. Node 24\.\d+\.\d+, pinned by the node package/m);
      expect(output).not.toMatch(/EBADENGINE|npm warn|npm WARN|npm error/);
      // The server says where it is, and keeps the leads in ./data/leads.sqlite, its owner's alone.
      expect(output).toContain(
        `Lead Intake API: the site is at http://localhost:${port} (listening on localhost:${port}); leads are kept in the SQLite file ./data/leads.sqlite,`,
      );
      expect(statSync(join(copy, 'data', 'leads.sqlite')).mode & 0o777).toBe(0o600);
      expect(await postJson(`http://localhost:${port}/api/v1/leads`, quote({ email: 'first@example.com' })).then((r) => r.status)).toBe(201);

      // The line after the two commands: the office's first account, made as written (the password
      // given on standard input, as a script gives it), then a sign-in at the address it names.
      const account = firstAccount();
      expect(account.command).toMatch(/^npm run -s leads -- user add \S+@example\.com$/);
      const made = await shell(`printf '%s\\n' 'mop and bucket 2026' | ${account.command}`, newcomer());
      expect(made.code, made.output).toBe(0);
      const signIn = new URL(account.signIn);
      expect(signIn.pathname).toBe('/office');
      const office = `http://localhost:${port}`;
      const signedIn = await officePost(office, '/office/sign-in', { email: account.command.split(' ').pop()!, password: 'mop and bucket 2026' });
      expect(signedIn.status).toBe(303);
      const cookie = signedIn.headers.get('set-cookie')!.split(';', 1)[0]!;
      expect((await fetch(`${office}${signIn.pathname}`, { headers: { Cookie: cookie } })).status).toBe(200);
    } finally {
      if (!ended) process.kill(-started.pid!, 'SIGINT');
      await exited;
    }
    expect(output).toContain('"msg":"stopped"');
  });

  it("runs the whole suite with its second command: package.json's test script, vitest run on every test file", async () => {
    expect(test).toBe('npm test');
    const pkg = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toBe('vitest run');
    // Running it here would run this test again, and the whole suite inside itself: every test file
    // is in one of the configuration's projects instead (`npm run test:unit` runs the first alone).
    const { default: config } = (await import(join(ROOT, 'vitest.config.ts'))) as { default: { test: { projects: Array<{ test: { include: string[] } }> } } };
    const patterns = config.test.projects.flatMap((project) => project.test.include);
    const files = readdirSync(join(ROOT, 'tests'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `tests/${f}`);
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((file) => !patterns.some((pattern) => matchesGlob(file, pattern)))).toEqual([]);
    expect(pkg.scripts['test:unit']).toBe('vitest run --project unit');
  });

  it('then restores a backup as docs/office.md writes it for the default layout: the leads of the backup, and none stored after it', async () => {
    const guide = readFileSync(join(ROOT, 'docs', 'office.md'), 'utf8');
    const [backup, restoreDefault] = codeBlocks(guide, 'Backups and restore');
    expect(backup).toBe('npm run -s leads -- backup data/before-upgrade.sqlite');
    const env = newcomer();
    const backedUp = await shell(backup!, env);
    expect(backedUp.code, backedUp.output).toBe(0);
    expect(backedUp.output).toMatch(/^Backed up 1 lead to /);
    // A lead stored after the backup: the restore goes back to before it.
    const store = openSqliteStore(join(copy, 'data', 'leads.sqlite'));
    try {
      const checked = validateLead(quote({ email: 'second@example.com' }));
      if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
      await store.submit(
        toLeadRecord(checked.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.9', userAgent: 'test', now: new Date() }),
        undefined,
      );
    } finally {
      await store.close();
    }

    const restored = await shell(`set -e\n${restoreDefault!}`, env);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output.trim(), 'the count of leads the restored store exports').toBe('1');
    expect(statSync(join(copy, 'data', 'leads.sqlite')).mode & 0o777).toBe(0o600);
    const replaced = readdirSync(join(copy, 'data')).filter((name) => name.startsWith('replaced-'));
    expect(replaced).toHaveLength(1);
    expect(readdirSync(join(copy, 'data', replaced[0]!))).toContain('leads.sqlite');
  });
});
