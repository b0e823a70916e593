/**
 * Backups of the SQLite store, on real files: a backup never lands on the store it copies (under
 * any spelling), is readable by its owner alone from its first byte, and a copy that fails
 * `integrity_check` is never kept, by hand or on a schedule.
 */
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBackups } from '../../src/jobs/backups.ts';
import { BackupError, backupSqliteFile } from '../../src/store/sqlite-backup.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'backup-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A store with `rows` leads of `size` bytes each, left in WAL mode with its -wal and -shm open beside it. */
function makeStore(path: string, rows: number, size = 200): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('CREATE TABLE leads (id TEXT PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO leads (id, body) VALUES (?, ?)');
  db.exec('BEGIN');
  for (let i = 0; i < rows; i++) insert.run(`lead-${i}`, `${i}:`.padEnd(size, 'x'));
  db.exec('COMMIT');
  return db;
}

describe('a backup onto the store itself', () => {
  it('is refused under every spelling of the store, its -wal and its -shm, and nothing is written', async () => {
    mkdirSync(join(dir, 'data'));
    const store = join(dir, 'data', 'leads.sqlite');
    const db = makeStore(store, 50);
    symlinkSync(store, join(dir, 'link.sqlite'));
    linkSync(store, join(dir, 'hard.sqlite'));
    const spellings = [
      store,
      join(dir, 'data', '..', 'data', 'leads.sqlite'),
      join(dir, 'link.sqlite'),
      join(dir, 'hard.sqlite'),
      `${store}-wal`,
      `${store}-shm`,
    ];
    for (const destination of spellings) {
      await expect(backupSqliteFile(store, destination), destination).rejects.toThrow(/is the store's own .*Nothing was written/);
    }
    // A -wal that does not exist yet is the store's all the same.
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    const before = readFileSync(store);
    expect(existsSync(`${store}-wal`)).toBe(false);
    await expect(backupSqliteFile(store, `${store}-wal`)).rejects.toThrow(BackupError);
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(readdirSync(join(dir, 'data'))).toEqual(['leads.sqlite']);
  });
  it("is refused when the store is named through a symbolic link and the destination is the real file's -wal or -shm", async () => {
    mkdirSync(join(dir, 'data'));
    const real = join(dir, 'data', 'leads.sqlite');
    const db = makeStore(real, 50);
    const link = join(dir, 'leads.sqlite');
    symlinkSync(real, link);
    // The server opens the link; SQLite keeps the -wal and -shm beside the real file.
    expect(existsSync(`${real}-wal`)).toBe(true);
    const wal = readFileSync(`${real}-wal`);
    for (const destination of [`${real}-wal`, `${real}-shm`]) {
      await expect(backupSqliteFile(link, destination), destination).rejects.toThrow(/is the store's own .*Nothing was written/);
    }
    expect(readFileSync(`${real}-wal`).equals(wal)).toBe(true);
    db.close();
    expect(readdirSync(join(dir, 'data'))).toEqual(['leads.sqlite']);
    // A -wal that does not exist yet is the store's all the same.
    await expect(backupSqliteFile(link, `${real}-wal`)).rejects.toThrow(BackupError);
    expect(readdirSync(join(dir, 'data'))).toEqual(['leads.sqlite']);
  });
});

describe('a backup being written', () => {
  it('is readable by its owner alone from its first byte to the last', async () => {
    const store = join(dir, 'leads.sqlite');
    makeStore(store, 4_000, 4_000).close();
    const umask = process.umask(0o022);
    const modes = new Set<number>();
    let watching = true;
    const watch = async () => {
      while (watching) {
        for (const name of readdirSync(dir)) {
          if (!name.includes('.partial')) continue;
          try {
            modes.add(statSync(join(dir, name)).mode & 0o777);
          } catch {
            /* gone between the listing and the stat */
          }
        }
        await new Promise((r) => setImmediate(r));
      }
    };
    try {
      const watcher = watch();
      const report = await backupSqliteFile(store, join(dir, 'backup.sqlite'));
      watching = false;
      await watcher;
      expect(report.leads).toBe(4_000);
      expect(modes.size).toBeGreaterThan(0);
      expect([...modes]).toEqual([0o600]);
      expect(statSync(join(dir, 'backup.sqlite')).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
    }
  });
});

/** A store whose table pages were overwritten in the middle, as a failing disk leaves it. */
function corruptStore(path: string): void {
  makeStore(path, 2_000).close();
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = DELETE');
  db.close();
  const bytes = readFileSync(path);
  const pageSize = bytes.readUInt16BE(16);
  for (let page = 3; page < 8; page++) bytes.fill(0x5a, page * pageSize + 8, (page + 1) * pageSize);
  writeFileSync(path, bytes);
}

describe('a copy that fails integrity_check', () => {
  it('by hand: refused with a message, and nothing is left at the destination', async () => {
    const store = join(dir, 'leads.sqlite');
    corruptStore(store);
    mkdirSync(join(dir, 'backups'));
    await expect(backupSqliteFile(store, join(dir, 'backups', 'copy.sqlite'))).rejects.toThrow(/integrity_check/);
    expect(readdirSync(join(dir, 'backups'))).toEqual([]);
  });

  it('on a schedule: the failure is logged and no file is kept', async () => {
    const store = join(dir, 'leads.sqlite');
    corruptStore(store);
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({}, new Writable({ write: (chunk, _, done) => (lines.push(JSON.parse(String(chunk))), done()) }));
    const backups = join(dir, 'backups');
    const job = startBackups({ settings: { dir: backups, intervalHours: 24, keep: 3 }, logger, backup: (destination) => backupSqliteFile(store, destination) });
    for (let i = 0; i < 3_000 && !lines.some((l) => l.msg === 'backup failed; it will be tried again'); i++) await new Promise((r) => setTimeout(r, 20));
    await job.stop();
    expect(lines.find((l) => l.msg === 'backup failed; it will be tried again')).toMatchObject({
      level: 50,
      err: { message: expect.stringMatching(/integrity_check/) },
    });
    expect(readdirSync(backups)).toEqual([]);
  });
});
