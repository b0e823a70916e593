/**
 * Starting the server as a person does: it says where it serves, without SITE_URL it links to its
 * own port, and its store is its own; a busy port is said in one line; its log reads as lines.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.ts';
import { childEnv, freePort, ROOT, startServer } from '../support/server.ts';

/** Runs `npm start` in a fresh directory's store with `env`; `until` says when to stop it (on what it wrote so far). */
async function npmStart(env: Record<string, string>, until?: (out: string) => boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'lead-intake-start-'));
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    env: { ...childEnv(), HOST: '127.0.0.1', DATABASE_URL: `file:${join(dir, 'leads.sqlite')}`, SITE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 300_000);
  if (until) {
    while (child.exitCode === null && !until(stdout + stderr)) await new Promise((r) => setTimeout(r, 50));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
  }
  const code = await exited;
  clearTimeout(timer);
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr };
}

describe('npm start', () => {
  it('says in one line where the site is served and what it runs on, and links to its own port when SITE_URL is not set; the store file is owner-only', async () => {
    const port = await freePort();
    const server = await startServer({ env: { PORT: String(port), SITE_URL: '' } });
    try {
      // Written beside the JSON log's "listening" line, on the other stream: it may come a moment later.
      for (let i = 0; i < 3_000 && server.said.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(server.said).toEqual([
        `Lead Intake API: the site is at http://localhost:${port} (listening on 127.0.0.1:${port}); leads are kept in the SQLite file ${server.databaseUrl.slice('file:'.length)}, rate limits counted in this process; no office e-mail (SMTP_URL is not set); no scheduled backups (BACKUP_DIR is not set).`,
      ]);
      // The store holds every customer's details: its owner's alone, and so are its -wal and -shm.
      await call(`${server.url}/api/v1`);
      const store = server.databaseUrl.slice('file:'.length);
      for (const file of [store, `${store}-wal`, `${store}-shm`]) expect(statSync(file).mode & 0o777, file).toBe(0o600);
      const status = await call(`${server.url}/api/v1`);
      const links = JSON.stringify(status.json);
      expect(links).toContain(`http://localhost:${port}/api/v1/leads`);
      expect(links).not.toContain('localhost:4321');
      expect(await call(`${server.url}/llms.txt`).then((r) => r.text)).toContain(`http://localhost:${port}/openapi.json`);
    } finally {
      await server.dispose();
    }
  });

  it('on a port already in use, says in one line which port and how to choose another, and exits non-zero', async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const { code, stdout, stderr } = await npmStart({ PORT: String(port) });
      expect(code).not.toBe(0);
      const lines = `${stdout}${stderr}`.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));
      expect(lines, stderr).toEqual([expect.stringMatching(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use.*PORT=${port + 1} npm start$`))]);
      expect(stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('with LOG_FORMAT=text, logs one readable line per page or API request and nothing for static files', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let asked = false;
    const { stdout } = await npmStart({ PORT: String(port), LOG_FORMAT: 'text' }, (out) => {
      if (!asked && out.includes('Lead Intake API: the site is at')) {
        asked = true;
        void (async () => {
          const page = await call(`${url}/developers`);
          const css = /href="(\/_astro\/[^"]+\.css)"/.exec(page.text)![1]!;
          await call(`${url}${css}`);
          await call(`${url}/favicon.svg`);
          await call(`${url}/api/v1/nothing-here`);
        })();
      }
      return /GET \/api\/v1\/nothing-here 404/.test(out);
    });
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines.filter((l) => /^\d\d:\d\d:\d\d (GET|POST) /.test(l))).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d GET \/developers 200 \d+ ms$/),
      expect.stringMatching(/^\d\d:\d\d:\d\d GET \/api\/v1\/nothing-here 404 \d+ ms$/),
    ]);
    expect(stdout).not.toMatch(/^\{/m);
  });
});
