/** `leads user add|remove|list`: the office page's accounts and their roles (staff, owner), made by whoever runs the server. */
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../office/passwords.ts';
import { accountKey } from '../office/session.ts';
import { ROLE_WORDS } from '../office/roles.ts';
import { OFFICE_ROLES, type OfficeRole } from '../office/store.ts';
import { spreadsheetTime } from '../office/local-time.ts';
import { plural } from '../lib/text.ts';
import { ask, UsageError, type Command } from './usage.ts';
import { companyTimeZone } from './time-zone.ts';
import { commandLineActor } from './actor.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with `password`, in one line; `undefined` when it will do. */
function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length >= MIN_PASSWORD_LENGTH) return undefined;
  const has = length === 0 ? 'is empty' : `has ${plural(length, 'character')}`;
  return `the password ${has}; it needs at least ${MIN_PASSWORD_LENGTH}. Nothing was changed.`;
}

/** The new password: asked twice on a terminal (its length checked at the first answer); else the first line of standard input. */
async function newPassword(): Promise<string> {
  const checked = (password: string) => {
    const problem = passwordProblem(password);
    if (problem) throw new UsageError(problem, { usage: false });
    return password;
  };
  if (!process.stdin.isTTY) return checked((await text(process.stdin)).split(/\r?\n/, 1)[0] ?? '');
  const first = checked(await ask(`Password (at least ${MIN_PASSWORD_LENGTH} characters; not shown): `, { hidden: true }));
  const again = await ask('The same password again: ', { hidden: true });
  if (first !== again) throw new UsageError('the two passwords differ. Nothing was changed.', { usage: false });
  return first;
}

export const userCommand: Command = async (args, open) => {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { role: { type: 'string' } } });
  const role = values.role as OfficeRole | undefined;
  if (role !== undefined && !OFFICE_ROLES.includes(role)) throw new UsageError(`--role must be staff or owner (got "${values.role}")`);
  if (role !== undefined && positionals[0] !== 'add') throw new UsageError('--role goes with user add');
  const [action, given, ...rest] = positionals;
  if (action === 'list' && given === undefined) {
    const store = await open();
    try {
      const users = await store.accounts.listUsers();
      const zone = companyTimeZone();
      if (users.length === 0) process.stdout.write('No accounts yet. Add one with: npm run -s leads -- user add <e-mail>\n');
      for (const u of users)
        process.stdout.write(
          `${u.email}  ${u.role}  added ${spreadsheetTime(u.createdAt, zone)}  ` +
            `${u.lastSignInAt ? `last signed in ${spreadsheetTime(u.lastSignInAt, zone)}` : 'never signed in'}\n`,
        );
    } finally {
      await store.close();
    }
    return;
  }
  if ((action !== 'add' && action !== 'remove') || given === undefined || rest.length > 0)
    throw new UsageError('user needs add <e-mail>, remove <e-mail> or list');
  const email = accountKey(given);
  if (!EMAIL.test(email)) throw new UsageError(`"${given}" is not an e-mail address`);
  if (action === 'add') {
    const password = await newPassword();
    const hash = await hashPassword(password);
    const store = await open();
    try {
      const at = new Date();
      const as = (r: OfficeRole) => ROLE_WORDS[r];
      const created = await store.accounts.saveUser(
        email,
        hash,
        at,
        (isNew) => ({
          at,
          actor: commandLineActor(),
          action: 'account added',
          detail: isNew
            ? `Added the account ${email}, as ${as(role ?? 'owner')}.`
            : `Set a new password for ${email}${role ? `, now ${as(role)}` : ''}; their sessions ended.`,
        }),
        role,
      );
      process.stdout.write(
        created
          ? `Added ${email} as ${as(role ?? 'owner')}: they can sign in at /office.\n`
          : `Set a new password for ${email}${role ? `, now ${as(role)}` : ''}; their open sessions have ended.\n`,
      );
    } finally {
      await store.close();
    }
    return;
  }
  const store = await open();
  try {
    const removed = await store.accounts.removeUser(email, {
      at: new Date(),
      actor: commandLineActor(),
      action: 'account removed',
      detail: `Removed the account ${email}.`,
    });
    process.stdout.write(removed ? `Removed ${email}; their sessions have ended.\n` : `There is no account ${email}: nothing was changed.\n`);
  } finally {
    await store.close();
  }
};
