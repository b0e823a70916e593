/**
 * The server's scheduled backup, in a worker thread (bundled as `dist/server/backup-worker.mjs`):
 * copying and checking a large store takes time on a thread of its own, never the event loop's
 * that answers submissions. It makes one backup and posts the report or the error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { backupSqliteFile } from '../store/sqlite-backup.ts';

const { source, destination } = workerData as { source: string; destination: string };
backupSqliteFile(source, destination).then(
  (report) => parentPort!.postMessage({ report }),
  (err: Error) => parentPort!.postMessage({ error: err.message }),
);
