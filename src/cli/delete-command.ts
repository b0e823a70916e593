/**
 * `leads delete --email|--phone`: a deletion on request, as the office's page serves it: first
 * whose leads and caught submissions would be removed (several names are warned of), then the
 * removal of every one of them (the page lets the office untick some), in the same words.
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
    const line = (item: { reference: string; receivedAt: string | Date; formType: 'quote' | 'support'; name: unknown }) =>
      `  ${item.reference}  ${spreadsheetTime(new Date(item.receivedAt), timeZone)}  ${formWords(item.formType)}  ${String(item.name ?? '')}`;
    if (preview.leads.length > 0) {
      say(`${would} ${plural(preview.leads.length, 'lead')} with this ${what}:`);
      for (const lead of preview.leads) say(line({ ...lead, name: lead.fields.name }));
    } else say(`No lead has this ${what}: check its spelling.`);
    if (preview.spam.length > 0) {
      say(`${would} ${plural(preview.spam.length, 'submission')} with this ${what} kept aside as suspected spam:`);
      for (const spam of preview.spam) say(line({ ...spam, name: spam.body.name }));
    }
    if (new Set([...preview.leads.map((l) => l.fields.name), ...preview.spam.map((s) => s.body.name)].map((n) => String(n).trim().toLowerCase())).size > 1)
      say(`These leads carry more than one name: check that they are all the same person's before removing them.`);
    if (preview.leads.length + preview.spam.length > 0)
      say(
        `The command ${dryRun ? 'would remove' : 'removes'} every one of them. To keep some (two people may share a ${what}), ` +
          'use the office page’s Delete on request, where each can be unticked.',
      );
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
