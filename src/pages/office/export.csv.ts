/** The export's download: the CSV `leads export --format csv` writes, for the period and form asked, recorded in the audit trail. */
import { PassThrough, Readable } from 'node:stream';
import type { APIRoute } from 'astro';
import { company } from '../../site.ts';
import { exportLeads } from '../../office/export.ts';
import { localDateInput, nextLocalDay, parseLocalDate } from '../../office/local-time.ts';

export const prerender = false;

export const GET: APIRoute = async ({ locals, url }) => {
  const { services, office } = locals;
  const { timeZone } = await company();
  const read = (name: string) => {
    const given = url.searchParams.get(name) ?? '';
    return given === '' ? { ok: true as const, date: undefined } : { ok: parseLocalDate(given, timeZone) !== undefined, date: parseLocalDate(given, timeZone) };
  };
  const since = read('since');
  const until = read('until');
  const form = url.searchParams.get('form') || undefined;
  const refused = (words: string) => new Response(`${words}\n`, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  if (!since.ok || !until.ok) return refused('A date could not be read: write it as 11/01/2026 or 2026-11-01. Go back and correct it.');
  if (form !== undefined && form !== 'quote' && form !== 'support')
    return refused('Choose quote requests, contact messages or both forms. Go back and choose again.');
  const filter = { since: since.date, until: until.date && nextLocalDay(until.date, timeZone), form: form as 'quote' | 'support' | undefined };
  const name = `leads-${since.date ? localDateInput(since.date, timeZone) : 'start'}-to-${until.date ? localDateInput(until.date, timeZone) : localDateInput(new Date(), timeZone)}.csv`;
  const out = new PassThrough();
  const now = new Date();
  void exportLeads(services.office.records, out, 'csv', filter, timeZone)
    .then(
      (count) => {
        out.end();
        const period = `${url.searchParams.get('since') || 'the start'} to ${url.searchParams.get('until') || 'now'}`;
        const detail = `${count} ${count === 1 ? 'lead' : 'leads'}, ${form === 'quote' ? 'quote requests' : form === 'support' ? 'contact messages' : 'both forms'}, ${period}`;
        return services.office.audit.record({ at: now, actor: office!.user, action: 'exported', detail });
      },
      (err: unknown) => {
        // A download cancelled in the browser ends the export: that is no failure.
        if (out.destroyed) services.logger.info('office export stopped: the download was cancelled');
        else services.logger.error({ err }, 'office export failed');
        out.destroy(err as Error);
      },
    )
    .catch((err: unknown) => services.logger.error({ err }, 'office export: its audit entry could not be written'));
  return new Response(Readable.toWeb(out) as ReadableStream, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` },
  });
};
