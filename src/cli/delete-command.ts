/**
 * `leads delete --email|--phone`: a deletion on request, as the office's page serves it: first
 * whose leads would be removed (several names are warned of), then the removal, in the same words.
 */
import { parseArgs } from 'node:util';
import { personOf } from '../leads/retention.ts';
import { plural } from '../lib/text.ts';
import { deleteOnRequest, deletionResult, formWords, previewDeletion } from '../office/deletion.ts';
import { spreadsheetTime } from '../office/local-time.ts';
import { commandLineActor } from './actor.ts';
import { companyTimeZone } from './time-zone.ts';
import { UsageError, type Command } from './usage.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

export const deleteCommand: Command = async (args, open) => {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, phone: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } });
  if ((values.email === undefined) === (values.phone === undefined)) throw new UsageError('delete needs exactly one of --email <address> and --phone <number>');
  const kind = values.email !== undefined ? 'email' : 'phone';
  const match = personOf(kind, (values.email ?? values.phone)!);
  if (!match)
    throw new UsageError(kind === 'email' ? '--email must be an e-mail address' : '--phone must be a 10-digit U.S. phone number, such as (503) 555-0142');
  const timeZone = companyTimeZone();
  const store = await open();
  try {
    const dryRun = values['dry-run'];
    const preview = await previewDeletion(store, match);
    const what = kind === 'email' ? 'e-mail address' : 'phone number';
    const would = dryRun ? 'Would remove' : 'Removing';
    if (preview.leads.length > 0) {
      say(`${would} ${plural(preview.leads.length, 'lead')} with this ${what}:`);
      for (const lead of preview.leads)
        say(`  ${lead.reference}  ${spreadsheetTime(new Date(lead.receivedAt), timeZone)}  ${formWords(lead.formType)}  ${String(lead.fields.name)}`);
    } else say(`No lead has this ${what}: check its spelling.`);
    if (preview.removed.suspectedSpam > 0)
      say(`${would} ${plural(preview.removed.suspectedSpam, 'submission')} with this ${what} kept aside as suspected spam.`);
    if (new Set(preview.leads.map((l) => String(l.fields.name).trim().toLowerCase())).size > 1)
      say(`These leads carry more than one name: check that they are all the same person's before removing them.`);
    if (dryRun) say('Nothing was changed (--dry-run).');
    else for (const sentence of deletionResult(await deleteOnRequest(store.records, match, commandLineActor()), match)) say(sentence);
    const emailed = preview.leads.filter((l) => preview.removed.officeEmails.includes(l.id));
    if (emailed.length > 0) {
      say(
        `The office was e-mailed about ${plural(emailed.length, 'of these leads', 'of these leads')}: ` +
          `${dryRun ? 'when deleting, also delete' : 'delete'} those messages from the office's mailbox too. Search it ` +
          `for their references:`,
      );
      for (const lead of emailed) say(`  ${lead.reference}`);
    }
  } finally {
    await store.close();
  }
};
