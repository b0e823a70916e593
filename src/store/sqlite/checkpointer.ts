/**
 * The SQLite store's checkpoints, off the request path: a thread of its own, with a connection of its
 * own, copies the write-ahead log into the database file every `CHECKPOINT_EVERY_MS` (PASSIVE: it
 * waits for no reader and no writer). The service's connection then never checkpoints inside a
 * COMMIT (`wal_autocheckpoint = 0`), so no lead's answer waits for the copy and its fsync. The
 * deletion's emptying of the log (`wal-eraser.ts`) still runs on the service's connection, at once.
 * Durability is the COMMIT's (synchronous = FULL fsyncs the log); a checkpoint only moves committed pages.
 */
import { Worker } from 'node:worker_threads';

/** How often the log is copied into the file: seldom enough that each copy writes a page once for many leads. */
export const CHECKPOINT_EVERY_MS = 1000;

/** How long closing waits for a checkpoint under way to end (it moves committed pages only). */
const STOP_WAIT_MS = 5000;

// The thread's code, plain JavaScript (evaluated: no file for a bundler to miss). It sleeps on the
// shared flag, so that a stop wakes it at once; it says it has closed its connection in slot 1.
const THREAD = `
const { workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const flag = new Int32Array(workerData.flag);
let db;
try {
  db = new DatabaseSync(workerData.path, { timeout: 0 });
  while (Atomics.wait(flag, 0, 0, workerData.everyMs) === 'timed-out') {
    try { db.exec('PRAGMA wal_checkpoint(PASSIVE)'); } catch {}
  }
} finally {
  try { db?.close(); } catch {}
  Atomics.store(flag, 1, 1);
  Atomics.notify(flag, 1);
}
`;

/**
 * Starts the checkpoints of the database at `path`; `stop()` ends them and closes their connection
 * before it returns. `ended` is called if the thread ends on its own (it could not start, or failed):
 * the service's connection then checkpoints as SQLite does by default.
 */
export function startCheckpoints(path: string, ended: () => void, everyMs = CHECKPOINT_EVERY_MS): { stop(): void } {
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(THREAD, { eval: true, workerData: { path, everyMs, flag: flag.buffer } });
  worker.unref();
  worker.on('error', () => Atomics.store(flag, 1, 1));
  worker.on('exit', () => {
    if (Atomics.load(flag, 0) === 0) ended();
  });
  return {
    stop() {
      if (Atomics.load(flag, 0) === 1) return;
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      // Synchronous, as the store's close is: the connection of the thread is closed before the service's.
      Atomics.wait(flag, 1, 0, STOP_WAIT_MS);
    },
  };
}
