/**
 * The export's download: the CSV `leads export --format csv` writes, of what the inbox shows (its
 * filters, carried by the inbox's link) or of a period and a form (the export page): one reading of
 * the inbox's address serves both. Its text is pulled as the browser takes it (`exportChunks`), so a
 * HEAD reads nothing and a cancelled download stops the reading; only a download sent to its end is
 * recorded in the audit trail.
 */
import type { APIRoute } from 'astro';
import { company } from '../../site/company.ts';
import { officeText } from '../../http/office-guard.ts';
import { exportChunks, exportPeriod, isExportPeriod } from '../../office/export.ts';
import { pulledBody } from '../../http/response-body.ts';
import { localDateInput } from '../../office/local-time.ts';
import { readInboxView, viewWords } from '../../office/inbox-filters.ts';
import { recallSearch } from '../../office/session.ts';
import { plural } from '../../lib/text.ts';

export const prerender = false;

export const GET: APIRoute = async ({ locals, url, request }) => {
  const { services } = locals;
  const office = locals.office!;
  const { timeZone } = await company();
  const q = new URLSearchParams(url.searchParams);
  const refused = (words: string) => officeText(400, words);
  const now = new Date();
  // This week, last week or this month (the export page's buttons): their days in place of the dates.
  const period = q.get('period') ?? '';
  if (period !== '') {
    if (!isExportPeriod(period)) return refused('Choose this week, last week or this month, or give the dates. Go back and choose again.');
    const days = exportPeriod(period, now, timeZone);
    q.set('since', days.since);
    q.set('until', days.until);
    q.delete('period');
  }
  const view = readInboxView(q, office.user, timeZone);
  const form = q.get('form') || undefined;
  if (view.badDate) return refused('A date could not be read: write it as 11/01/2026 or 2026-11-01. Go back and correct it.');
  if (form !== undefined && form !== 'quote' && form !== 'support')
    return refused('Choose quote requests, contact messages or both forms. Go back and choose again.');
  if (view.badZip) return refused('The ZIP code could not be read: write its 5 digits, such as 97201. Go back and correct it.');
  // A search is kept with the session that made it, under the handle the link carries.
  const search = view.handle ? await recallSearch(office.powers.sessions, office.token, view.handle) : '';
  if (search === undefined)
    return refused('That search is no longer kept (searches end with the sign-in, or after a deletion on request). Search again, then download.');
  const from = view.since ? localDateInput(view.since, timeZone) : 'start';
  const to = localDateInput(view.untilDay ?? new Date(), timeZone);
  const name = `leads-${from}-to-${to}.csv`;
  const headers = { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` };
  // A HEAD asks what the download is, not for it: nothing is read and nothing is recorded.
  if (request.method === 'HEAD') return new Response(null, { headers });

  const tally = { leads: 0 };
  const what = viewWords(view, { since: q.get('since') ?? '', until: q.get('until') ?? '' });
  const source = { exportLeads: office.powers.records.exportLeads, exportInbox: office.powers.inbox.exportInbox };
  async function* download(): AsyncGenerator<Uint8Array> {
    let whole = false;
    try {
      for await (const text of exportChunks(source, 'csv', { ...view.filter, search }, timeZone, tally, now)) yield Buffer.from(text);
      whole = true;
    } finally {
      if (!whole) services.logger.info({ leads: tally.leads }, 'office export stopped before its end: the download was cancelled or failed');
    }
    await office.powers.audit
      .record({ at: now, actor: office.user, action: 'exported', detail: `Downloaded a spreadsheet of ${plural(tally.leads, 'lead')} (${what}).` })
      .catch((err: unknown) => services.logger.error({ err }, 'office export: its audit entry could not be written'));
  }
  return new Response(pulledBody(download()), { headers });
};
