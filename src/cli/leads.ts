/**
 * The office's commands on the lead store that `DATABASE_URL` names: `npm run -s leads -- <command>`.
 * `src/cli/usage.ts` says what each does; exit status 0 done, 1 failed, 2 wrong call. Each command
 * is a file of its own, and works with the store's roles (`commandRoles`) and the office's use cases.
 */
import { commandRoles } from '../roles/index.ts';
import { ConfigError, getConfig } from '../config/config.ts';
import { createLeadStore } from '../store/index.ts';
import { TERMINAL_LOG } from '../store/sqlite/handle.ts';
import { BackupError } from '../store/sqlite-backup.ts';
import { backupCommand } from './backup-command.ts';
import { deleteCommand } from './delete-command.ts';
import { exportCommand } from './export-command.ts';
import { outboxCommand } from './outbox-command.ts';
import { OutputFileError } from './output-file.ts';
import { purgeCommand } from './purge-command.ts';
import { USAGE, UsageError, type Command, type OpenStore } from './usage.ts';
import { userCommand } from './users.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);

const commands: Record<string, Command> = {
  export: exportCommand,
  delete: deleteCommand,
  purge: purgeCommand,
  user: userCommand,
  backup: backupCommand,
  outbox: outboxCommand,
};

/** The store `DATABASE_URL` names, as the commands receive it: its roles, its warnings on standard error. */
const open: OpenStore = async () => {
  const store = await createLeadStore(getConfig(), TERMINAL_LOG);
  return { ...commandRoles(store), close: () => store.close() };
};

// A reader that stops early (`leads export | head`) is normal: stop quietly, as `cat` does.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const [name, ...args] = process.argv.slice(2);
const command = name === undefined ? undefined : commands[name];
try {
  if (!command) throw new UsageError(name === undefined ? 'a command is needed' : `unknown command: ${name}`);
  await command(args, open);
} catch (err) {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    say(err instanceof UsageError && !err.usage ? `leads ${name}: ${err.message}` : `${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  say(
    err instanceof ConfigError
      ? err.message
      : err instanceof BackupError || err instanceof OutputFileError
        ? `leads ${name}: ${err.message}`
        : `leads ${name} failed: ${(err as Error).message}`,
  );
  process.exit(1);
}
