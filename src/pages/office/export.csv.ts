/**
 * The export's download: the CSV `leads export --format csv` writes, for the period and form asked.
 * Its text is pulled as the browser takes it (`exportChunks`), so a HEAD reads nothing and a
 * cancelled download stops the reading; only a download sent to its end is recorded in the audit trail.
 */
import type { APIRoute } from 'astro';
import { company } from '../../site/company.ts';
import { officeText } from '../../http/office-guard.ts';
import { exportChunks } from '../../office/export.ts';
import { pulledBody } from '../../http/response-body.ts';
import { localDateInput, nextLocalDay, parseLocalDate } from '../../office/local-time.ts';
import { plural } from '../../lib/text.ts';

export const prerender = false;

export const GET: APIRoute = async ({ locals, url, request }) => {
  const { services } = locals;
  const office = locals.office!;
  const { timeZone } = await company();
  const read = (name: string) => {
    const given = url.searchParams.get(name) ?? '';
    const date = given === '' ? undefined : parseLocalDate(given, timeZone);
    return { ok: given === '' || date !== undefined, date };
  };
  const since = read('since');
  const until = read('until');
  const form = url.searchParams.get('form') || undefined;
  const refused = (words: string) => officeText(400, words);
  if (!since.ok || !until.ok) return refused('A date could not be read: write it as 11/01/2026 or 2026-11-01. Go back and correct it.');
  if (form !== undefined && form !== 'quote' && form !== 'support')
    return refused('Choose quote requests, contact messages or both forms. Go back and choose again.');
  const filter = { since: since.date, until: until.date && nextLocalDay(until.date, timeZone), form: form as 'quote' | 'support' | undefined };
  const from = since.date ? localDateInput(since.date, timeZone) : 'start';
  const to = localDateInput(until.date ?? new Date(), timeZone);
  const name = `leads-${from}-to-${to}.csv`;
  const headers = { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` };
  // A HEAD asks what the download is, not for it: nothing is read and nothing is recorded.
  if (request.method === 'HEAD') return new Response(null, { headers });

  const now = new Date();
  const tally = { leads: 0 };
  const what = form === 'quote' ? 'quote requests' : form === 'support' ? 'contact messages' : 'both forms';
  const period = `${url.searchParams.get('since') || 'the start'} to ${url.searchParams.get('until') || 'now'}`;
  async function* download(): AsyncGenerator<Uint8Array> {
    let whole = false;
    try {
      for await (const text of exportChunks(office.powers.records, 'csv', filter, timeZone, tally)) yield Buffer.from(text);
      whole = true;
    } finally {
      if (!whole) services.logger.info({ leads: tally.leads }, 'office export stopped before its end: the download was cancelled or failed');
    }
    await office.powers.audit
      .record({ at: now, actor: office.user, action: 'exported', detail: `Downloaded a spreadsheet of ${plural(tally.leads, 'lead')} (${what}, ${period}).` })
      .catch((err: unknown) => services.logger.error({ err }, 'office export: its audit entry could not be written'));
  }
  return new Response(pulledBody(download()), { headers });
};
