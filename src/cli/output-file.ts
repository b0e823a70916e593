/**
 * A file the office's commands write with customers' details in it (`leads export --output`):
 * readable by its owner only from its first byte, whatever the umask, unlike a shell's `>`; never
 * over an existing file unless asked; and whole or absent, since it is written under a partial
 * name and renamed only once complete and flushed to disk.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';

/** Why a file cannot be written, worded for the person who asked for it. */
export class OutputFileError extends Error {
  override name = 'OutputFileError';
}

/** Writes `path` with `write`, owner-only; refuses an existing `path` unless `force`. Resolves with what `write` did. */
export async function writeOwnerOnly<T>(path: string, force: boolean, write: (out: Writable) => Promise<T>): Promise<T> {
  const refuse = () => new OutputFileError(`${path} exists already: choose another name, or add --force to replace it`);
  if (!force && existsSync(path)) throw refuse();
  const partial = `${path}.${process.pid}.partial`;
  const file = await open(partial, 'wx', 0o600).catch((err: NodeJS.ErrnoException) => {
    throw new OutputFileError(`cannot write ${path}: ${err.code === 'ENOENT' ? 'its folder does not exist' : err.message}`);
  });
  try {
    // The umask can only take permissions away; a restrictive one must not leave the owner unable to read it.
    await file.chmod(0o600);
    const out = file.createWriteStream({ flush: true });
    const result = await write(out);
    out.end();
    await finished(out);
    // Checked again: another program may have made the file while this one was written.
    if (!force && existsSync(path)) throw refuse();
    renameSync(partial, path);
    return result;
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    await file.close().catch(() => undefined);
  }
}
