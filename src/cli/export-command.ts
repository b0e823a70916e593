/** `leads export`: the leads of a period and a form, as JSON lines or CSV, to standard output or a new file; recorded in the audit trail. */
import { parseArgs } from 'node:util';
import { plural } from '../lib/text.ts';
import { exportLeads } from '../office/export.ts';
import { commandLineActor } from './actor.ts';
import { writeOwnerOnly } from './output-file.ts';
import { companyTimeZone } from './time-zone.ts';
import { period, UsageError, type Command } from './usage.ts';

export const exportCommand: Command = async (args, open) => {
  const { values } = parseArgs({
    args,
    options: {
      format: { type: 'string', default: 'jsonl' },
      since: { type: 'string' },
      until: { type: 'string' },
      form: { type: 'string' },
      output: { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  });
  if (values.format !== 'jsonl' && values.format !== 'csv') throw new UsageError(`--format must be jsonl or csv (got "${values.format}")`);
  if (values.form !== undefined && values.form !== 'quote' && values.form !== 'support')
    throw new UsageError(`--form must be quote or support (got "${values.form}")`);
  if (values.force && values.output === undefined) throw new UsageError('--force replaces the file named by --output, and needs it');
  const timeZone = companyTimeZone();
  const filter = { ...period(values, timeZone), form: values.form as 'quote' | 'support' | undefined };
  const store = await open();
  try {
    const { format, output } = values;
    // The CSV is the office page's spreadsheet of everything in the period (its columns, status, owner and notes).
    const source = { exportLeads: store.records.exportLeads, exportInbox: store.inbox.exportInbox };
    let count: number;
    if (output === undefined) {
      count = await exportLeads(source, process.stdout, format, filter, timeZone);
    } else {
      count = await writeOwnerOnly(output, values.force, (out) => exportLeads(source, out, format, filter, timeZone));
      process.stdout.write(`Wrote ${plural(count, 'lead')} to ${output}, readable by you only.\n`);
    }
    // The audit trail records exports from the command line as from the office's page.
    await store.audit.record({
      at: new Date(),
      actor: commandLineActor(),
      action: 'exported',
      detail: `Exported ${plural(count, 'lead')} (${format === 'csv' ? 'CSV' : 'JSON lines'}) from the command line.`,
    });
  } finally {
    await store.close();
  }
};
