/**
 * What each per-lead write costs (`BENCH_WITHOUT`): the service started on a store prepared
 * beforehand without one of the indexes or triggers on `leads`, or without all of them but the
 * primary key and the UNIQUE indexes. The store is made through the service's own migrations
 * (`openSqliteStore`, which records them as applied, so that the service applies none of them again
 * and recreates nothing), then the index or trigger is dropped; after the run, `stillThere` reads
 * sqlite_master to prove that the service did not put it back.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openSqliteStore } from '../src/store/sqlite/index.ts';

/** An index or a trigger on `leads`. */
export interface LeadsWrite {
  type: 'index' | 'trigger';
  name: string;
}

/** A variant of the store: the label of its row, what it lacks, and the prepared file each run copies. */
export interface Without {
  label: string;
  /** The name asked for (`all` or an index or trigger). */
  asked: string;
  dropped: LeadsWrite[];
  template: string;
}

/** What `BENCH_WITHOUT=all` drops and keeps, as read from a fresh store's sqlite_master. */
export interface LeadsWrites {
  droppable: LeadsWrite[];
  /** What `all` keeps: the primary key and the UNIQUE indexes, described. */
  kept: string[];
}

/** A fresh store at `file`, made and migrated by the store itself (each migration recorded as applied), then closed. */
async function migratedStore(file: string): Promise<void> {
  const store = openSqliteStore(file);
  await store.close();
}

/** The indexes and triggers on `leads` of the store at `file`: those that may be dropped, and those the intake needs. */
function leadsWrites(file: string): LeadsWrites {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const triggers = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'leads' ORDER BY name").all() as Array<{ name: string }>
    ).map((t) => ({ type: 'trigger' as const, name: t.name }));
    // origin: 'pk' the primary key, 'u' a UNIQUE constraint, 'c' a CREATE INDEX (unique or not).
    const indexes = db.prepare("PRAGMA index_list('leads')").all() as Array<{ name: string; unique: number; origin: string }>;
    const columns = (index: string) =>
      (db.prepare(`PRAGMA index_info('${index}')`).all() as Array<{ name: string | null }>).map((c) => c.name ?? 'an expression');
    const droppable = indexes
      .filter((i) => i.origin === 'c' && i.unique === 0)
      .map((i) => ({ type: 'index' as const, name: i.name }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const kept = indexes
      .filter((i) => !(i.origin === 'c' && i.unique === 0))
      .map((i) =>
        i.origin === 'pk'
          ? `the primary key (${columns(i.name).join(', ')})`
          : i.origin === 'u'
            ? `UNIQUE (${columns(i.name).join(', ')})`
            : `${i.name} (UNIQUE: ${columns(i.name).join(', ')})`,
      );
    return { droppable: [...droppable, ...triggers], kept };
  } finally {
    db.close();
  }
}

const present = (db: DatabaseSync, writes: LeadsWrite[]) => {
  const names = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')").all() as Array<{ name: string }>).map((r) => r.name));
  return writes.filter((w) => names.has(w.name)).map((w) => w.name);
};

/** Drops `writes` from the store at `file` (closed after, its log checkpointed into the file); says which are still there (none). */
function drop(file: string, writes: LeadsWrite[]): string[] {
  const db = new DatabaseSync(file);
  try {
    for (const w of writes) db.exec(`DROP ${w.type === 'index' ? 'INDEX' : 'TRIGGER'} "${w.name}"`);
    return present(db, writes);
  } finally {
    db.close();
  }
}

/** Which of `writes` the store at `file` holds (after a run: none, or the service recreated them). */
export function stillThere(file: string, writes: LeadsWrite[]): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return present(db, writes);
  } finally {
    db.close();
  }
}

/**
 * The variants `names` asks for (`BENCH_WITHOUT`, split), each prepared once in a directory of its
 * own: `all`, or the name of an index or trigger on `leads` that is neither the primary key nor
 * UNIQUE. A name the store does not have stops the bench before it starts, saying which it has.
 */
export async function preparedWithout(names: string[]): Promise<{ variants: Without[]; writes: LeadsWrites; dir: string; cleanUp(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-without-'));
  const fresh = join(dir, 'fresh.sqlite');
  await migratedStore(fresh);
  const writes = leadsWrites(fresh);
  const variants: Without[] = [];
  for (const [i, asked] of names.entries()) {
    const dropped = asked === 'all' ? writes.droppable : writes.droppable.filter((w) => w.name === asked);
    if (dropped.length === 0)
      throw new Error(
        `BENCH_WITHOUT: '${asked}' is not an index or trigger on leads that may be dropped; these are: all, ${writes.droppable.map((w) => w.name).join(', ')} (kept: ${writes.kept.join(', ')})`,
      );
    const template = join(dir, `without-${i}.sqlite`);
    await migratedStore(template);
    const left = drop(template, dropped);
    if (left.length > 0) throw new Error(`BENCH_WITHOUT: ${left.join(', ')} could not be dropped`);
    // Closed cleanly: the whole store is in its one file, which each run copies.
    if (existsSync(`${template}-wal`)) throw new Error(`BENCH_WITHOUT: ${template} kept a write-ahead log`);
    variants.push({ label: `service without ${asked}`, asked, dropped, template });
  }
  return { variants, writes, dir, cleanUp: () => rmSync(dir, { recursive: true, force: true }) };
}
