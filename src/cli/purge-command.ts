/** `leads purge`: removes what is past its time (leads past retention, and the rest `/privacy` names), asking before removing leads sooner than retention. */
import { parseArgs } from 'node:util';
import { getConfig } from '../config/config.ts';
import { DELETION_RECORD_TEXT, purge, purgeCutoffs, SPAM_KEEP_DAYS } from '../leads/retention.ts';
import { REPLAY_WINDOW_HOURS } from '../leads/store.ts';
import { plural } from '../lib/text.ts';
import { spreadsheetTime } from '../office/local-time.ts';
import { companyTimeZone } from './time-zone.ts';
import { ask, UsageError, type Command } from './usage.ts';

export const purgeCommand: Command = async (args, open) => {
  const { values } = parseArgs({
    args,
    options: { 'older-than': { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, yes: { type: 'boolean', default: false } },
  });
  const given = values['older-than'];
  if (given !== undefined && !/^\d{1,5}$/.test(given)) throw new UsageError(`--older-than must be a whole number of days (got "${given}")`);
  const retention = getConfig().leadsRetentionDays;
  const days = given === undefined ? retention : Number(given);
  const cutoffs = purgeCutoffs(new Date(), days);
  const timeZone = companyTimeZone();
  const store = await open();
  try {
    let due = 0;
    for await (const _ of store.records.exportLeads({ until: cutoffs.leadsBefore })) due++;
    const before = `received before ${spreadsheetTime(cutoffs.leadsBefore, timeZone)} (${plural(days, 'day')} ago)`;
    if (values['dry-run']) {
      process.stdout.write(`Would remove ${plural(due, 'lead')} ${before}. Nothing was changed (--dry-run).\n`);
      return;
    }
    if (days < retention && due > 0 && !values.yes) {
      const question =
        `This removes ${plural(due, 'lead')} ${before}, sooner than the ${plural(retention, 'day')} the company keeps ` + `leads (LEADS_RETENTION_DAYS).`;
      if (!process.stdin.isTTY) throw new UsageError(`${question} Add --yes to do it without being asked.`);
      if ((await ask(`${question} Type yes to remove them: `)).trim().toLowerCase() !== 'yes') {
        process.stdout.write('Nothing was removed.\n');
        return;
      }
    }
    const removed = await purge(store.records, cutoffs);
    const records = `${plural(removed.idempotencyKeys, 'idempotency record')} and ${plural(removed.fingerprints, 'duplicate fingerprint')}`;
    process.stdout.write(
      [
        `Removed ${plural(removed.leads, 'lead')} ${before}`,
        `${records} older than ${REPLAY_WINDOW_HOURS} hours`,
        `${plural(removed.suspectedSpam, 'suspected spam submission')} older than ${SPAM_KEEP_DAYS} days`,
        `and ${plural(removed.deletionRecords, 'deletion record')} older than ${DELETION_RECORD_TEXT}.\n`,
      ].join(', '),
    );
  } finally {
    await store.close();
  }
};
