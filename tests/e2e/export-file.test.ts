/**
 * `leads export --output <file>`, as docs/office.md recommends it: the export holds every
 * customer's details, so the file is its owner's alone whatever the umask, an existing file is
 * kept unless --force, and no half-written file is left under any name.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote } from '../support/fixtures.ts';
import { childEnv, ROOT } from '../support/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'export-file-'));
const store = join(dir, 'leads.sqlite');
const mode = (file: string) => statSync(file).mode & 0o777;

/** Runs a command line in the project folder under the usual umask (022), on this suite's store. */
const shell = (command: string) =>
  spawnSync('sh', ['-c', `umask 022 && ${command}`], { cwd: ROOT, env: { ...childEnv(), DATABASE_URL: `file:${store}` }, encoding: 'utf8' });

beforeAll(async () => {
  const leads = openSqliteStore(store);
  try {
    for (const name of ['Jane Doe', 'John Roe']) {
      const checked = validateLead(quote({ name }));
      if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
      await leads.submit(
        toLeadRecord(checked.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.9', userAgent: 'test', now: new Date() }),
        undefined,
      );
    }
  } finally {
    await leads.close();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('leads export --output', () => {
  it("writes the export to a new file only its owner can read, where the shell's > would let everyone read it", () => {
    const file = join(dir, 'leads.csv');
    const run = shell(`npm run -s leads -- export --format csv --output ${file}`);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Wrote 2 leads to ${file}, readable by you only.\n`);
    expect(mode(file)).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('\ufeffReference,')).toBe(true);
    expect(text).toContain('Jane Doe');
    expect(text).toContain('John Roe');
    // The reason docs/office.md gives for preferring --output.
    const redirected = join(dir, 'redirected.csv');
    expect(shell(`npm run -s leads -- export --format csv > ${redirected}`).status).toBe(0);
    expect(mode(redirected)).toBe(0o644);
    expect(readFileSync(redirected, 'utf8')).toBe(text);
  });

  it('refuses to replace an existing file, leaving it as it was, and replaces it with --force, owner-only', () => {
    const file = join(dir, 'november.jsonl');
    writeFileSync(file, 'the office keeps this\n');
    chmodSync(file, 0o644);
    const refused = shell(`npm run -s leads -- export --output ${file}`);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(`leads export: ${file} exists already: choose another name, or add --force to replace it\n`);
    expect(readFileSync(file, 'utf8')).toBe('the office keeps this\n');

    const forced = shell(`npm run -s leads -- export --output ${file} --force`);
    expect(forced.status, forced.stderr).toBe(0);
    expect(mode(file)).toBe(0o600);
    expect(
      readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).fields.name),
    ).toEqual(['Jane Doe', 'John Roe']);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('says when the folder does not exist, and writes nothing', () => {
    const run = shell(`npm run -s leads -- export --output ${join(dir, 'no-such-folder', 'leads.csv')}`);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('its folder does not exist');
  });

  it('takes --force only with --output: a wrong call, with the usage', () => {
    const run = shell('npm run -s leads -- export --force');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--force replaces the file named by --output, and needs it');
    expect(run.stderr).toContain('[--output <file> [--force]]');
  });
});
