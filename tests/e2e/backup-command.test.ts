/**
 * The office's `backup` command (`npm run -s leads -- backup <file>`), run as an operator runs it,
 * against a store a failing disk has damaged: it refuses in words, exits non-zero, and leaves
 * nothing at the destination, not even its temporary file.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote } from '../support/fixtures.ts';
import { leads } from '../support/server.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'backup-command-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A real store of `n` leads (one taken in, the rest copied from it by SQL), in one file (its log
 * emptied), whose index of e-mail addresses then has its pages overwritten in the middle with
 * garbage, as a failing disk leaves them. The table itself is whole: the store opens and its
 * leads are counted and read; only `PRAGMA integrity_check` finds the damage.
 */
async function damagedStore(path: string, n: number): Promise<void> {
  const store = openSqliteStore(path);
  try {
    const v = validateLead(quote());
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    await store.submit(
      toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.9', userAgent: 'test', now: new Date() }),
      undefined,
    );
  } finally {
    await store.close();
  }
  const db = new DatabaseSync(path);
  // Copies of the one lead, each with its own id, reference and e-mail address, whatever the other columns.
  const fresh: Record<string, string> = {
    id: 'lower(hex(randomblob(16)))',
    reference: "'Q-' || upper(hex(randomblob(8)))",
    email_normalised: "i || '.' || email_normalised",
  };
  const columns = (db.prepare('PRAGMA table_info(leads)').all() as Array<{ name: string }>).map((c) => c.name);
  db.exec(`INSERT INTO leads (${columns.join(', ')})
           SELECT ${columns.map((c) => fresh[c] ?? c).join(', ')}
           FROM leads, (WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${n - 1}) SELECT i FROM k)`);
  db.exec('PRAGMA journal_mode = DELETE');
  const pages = (
    db.prepare("SELECT pageno FROM dbstat WHERE name = 'leads_by_email' AND pagetype = 'leaf' ORDER BY pageno").all() as Array<{ pageno: number }>
  ).map((r) => r.pageno);
  const pageSize = Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
  db.close();
  expect(pages.length).toBeGreaterThan(4);
  const bytes = readFileSync(path);
  for (const page of pages.slice(1, -1)) bytes.fill(0x5a, (page - 1) * pageSize + 8, page * pageSize);
  writeFileSync(path, bytes);
}

describe('leads backup on a damaged store', () => {
  it('exits non-zero with a message in words, and leaves nothing at the destination', async () => {
    const store = join(dir, 'leads.sqlite');
    await damagedStore(store, 2_000);
    // The damage is real, and the table reads: a backup that skipped the check would be written.
    const db = new DatabaseSync(store, { readOnly: true });
    const check = (db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    expect(check).not.toEqual(['ok']);
    expect(db.prepare('SELECT count(*) AS n FROM leads').get()).toEqual({ n: 2_000 });
    db.close();
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    const destination = join(backups, 'leads-2026-11-24.sqlite');
    const { code, stdout, stderr } = await leads(`file:${store}`, ['backup', destination]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    // One line that says what happened and what to do, with SQLite's first findings; no stack trace.
    expect(stderr).toMatch(
      /^leads backup: the copy failed PRAGMA integrity_check, so the store itself is likely damaged; no backup was kept\. .*SQLite found \d+ (or more )?problems, the first: \S/,
    );
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(existsSync(destination)).toBe(false);
    expect(readdirSync(backups)).toEqual([]);
  });
});
