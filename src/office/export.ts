/**
 * The office's export, from its page and from `leads export`: the stored leads as JSON lines
 * (every field and all the evidence, times in UTC) or as CSV for a spreadsheet (one header row,
 * the columns the office works with: where it stands with each lead, its notes and who has it,
 * times in the company's time zone, named in the header; what the inbox shows, or everything).
 * Pulled piece by piece (`exportChunks`): a page of leads in memory at a time, and no more read than
 * the reader takes.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { LeadRecord } from '../leads/lead.ts';
import type { LeadRecords } from '../leads/store.ts';
import { formatUsPhone } from '../leads/phone.ts';
import { bedroomsWords, choiceWords, contactLimitWords, textList, spanWords } from './lead-words.ts';
import { localDateInput, spreadsheetTime } from './local-time.ts';
import { answeredInTime } from './promise-words.ts';
import { weekStarts } from './overview.ts';
import { STATUS_WORDS } from './audit-words.ts';
import { formWords } from './deletion.ts';
import type { InboxFilter, InboxLead, OfficeInbox } from './store.ts';

/** Where an export reads: the stored leads as taken in (JSON lines), and the inbox's view of them (CSV). */
export type ExportSource = Pick<LeadRecords, 'exportLeads'> & Pick<OfficeInbox, 'exportInbox'>;

/** The JSON line of a lead: what the office and any later tool may need. */
export function leadLine(lead: LeadRecord): string {
  return JSON.stringify({
    id: lead.id,
    reference: lead.reference,
    formType: lead.formType,
    receivedAt: lead.receivedAt,
    receivedVia: lead.receivedVia,
    fields: lead.fields,
    phoneE164: lead.phoneE164,
    emailNormalised: lead.emailNormalised,
    consent: lead.consent,
    ...(lead.inServiceArea !== undefined && { inServiceArea: lead.inServiceArea }),
    ...(lead.answerBy && { answerBy: lead.answerBy }),
    ...(lead.disclosure && { disclosure: lead.disclosure }),
  });
}

/** A phone as the customer would dial it, `(503) 555-0142`: never with a leading `+` or any other character a spreadsheet would run. */
export function dialled(e164: string): string {
  const national = formatUsPhone(e164);
  return /^[=+\-@\t\r]/.test(national) ? e164.replace(/\D/g, '') : national;
}

/** The office's notes on a lead in one cell, a line each, oldest first: `2026-11-23 17:03, ann@example.com: Called, no answer.` */
const notesCell = (item: InboxLead, timeZone: string) => item.notes.map((n) => `${spreadsheetTime(n.at, timeZone)}, ${n.by}: ${n.text}`).join('\n');

const yesNo = (value: boolean | undefined) => (value === undefined ? '' : value ? 'yes' : 'no');
const words = (field: 'frequency' | 'preferredContact' | 'timeOfDay', value: unknown) => (typeof value === 'string' ? choiceWords(field, value) : value);

/**
 * The CSV's columns, what the office works with, in its words: a header for people, and where each
 * value comes from. No internal identifier (the lead's id, the E.164 phone, how it came in): the
 * JSON lines keep those.
 */
const columns = (timeZone: string, now: Date): ReadonlyArray<[string, (item: InboxLead) => unknown]> => [
  ['Reference', ({ lead }) => lead.reference],
  [`Received (${timeZone} time)`, ({ lead }) => spreadsheetTime(new Date(lead.receivedAt), timeZone)],
  ['Form', ({ lead }) => formWords(lead.formType)],
  ['Name', ({ lead }) => lead.fields.name],
  ['Phone', ({ lead }) => dialled(lead.phoneE164)],
  ['E-mail', ({ lead }) => lead.fields.email],
  ['Service', ({ lead }) => lead.fields.service],
  ['Bedrooms', ({ lead }) => bedroomsWords(lead.fields.bedrooms)],
  ['Bathrooms', ({ lead }) => lead.fields.bathrooms],
  ['ZIP code', ({ lead }) => lead.fields.postalCode],
  ['Outside the service area', ({ lead }) => yesNo(lead.inServiceArea === undefined ? undefined : !lead.inServiceArea)],
  ['Preferred dates', ({ lead }) => textList(lead.fields.preferredDates).join('; ')],
  ['Time of day', ({ lead }) => words('timeOfDay', lead.fields.timeOfDay)],
  ['How often', ({ lead }) => words('frequency', lead.fields.frequency)],
  ['Reach first by', ({ lead }) => words('preferredContact', lead.fields.preferredContact)],
  ['Reach only by', ({ lead }) => contactLimitWords(lead.fields.allowedContact)],
  ['Status', (item) => STATUS_WORDS[item.status]],
  ['Status set by', (item) => item.statusBy],
  [`Status set (${timeZone} time)`, (item) => item.statusAt && spreadsheetTime(item.statusAt, timeZone)],
  ['Taken by', (item) => item.owner],
  ['Office notes', (item) => notesCell(item, timeZone)],
  ['Help with', ({ lead }) => lead.fields.helpWith],
  ['Customer’s notes', ({ lead }) => lead.fields.notes],
  ['Message', ({ lead }) => lead.fields.message],
  // Columns added later come last: a spreadsheet made from an earlier export keeps its columns.
  ['Window of days', ({ lead }) => spanWords(lead.fields.preferredWindow)],
  // The promise, checked from the spreadsheet (issue 55, item 8): when the customer was to be answered by, the first contact, the verdict.
  [`Answer by (${timeZone} time)`, ({ lead }) => lead.answerBy && spreadsheetTime(new Date(lead.answerBy), timeZone)],
  [`First contact (${timeZone} time)`, (item) => item.firstContact && spreadsheetTime(item.firstContact.at, timeZone)],
  ['First contact by', (item) => item.firstContact?.by],
  ['In time or late', (item) => promiseKept(item, now)],
  ['Attempts', (item) => item.attempts?.count ?? 0],
];

/**
 * Whether the promise was kept, as the promise chart counts it: "In time" or "Late" by the first contact;
 * "Late" while it still waits past its answer-by; empty while it waits and is not yet due, and for a lead
 * without an answer-by or moved on before first contacts were recorded.
 */
export function promiseKept(item: Pick<InboxLead, 'status' | 'firstContact'> & { lead: Pick<LeadRecord, 'answerBy'> }, now: Date): string {
  if (!item.lead.answerBy) return '';
  const promised = new Date(item.lead.answerBy);
  if (item.firstContact) return answeredInTime(item.firstContact.at, promised) ? 'In time' : 'Late';
  return item.status === 'new' && now.getTime() > promised.getTime() ? 'Late' : '';
}

/** The periods the export page offers besides its dates: weeks from Monday in the office's time zone (as the week table), and this month. */
export const EXPORT_PERIODS = { 'this-week': 'This week', 'last-week': 'Last week', 'this-month': 'This month' } as const;
export type ExportPeriod = keyof typeof EXPORT_PERIODS;
export const isExportPeriod = (value: string): value is ExportPeriod => Object.hasOwn(EXPORT_PERIODS, value);

/** The first and last local days (`YYYY-MM-DD`, both included) of `period` at `now` in `timeZone`. */
export function exportPeriod(period: ExportPeriod, now: Date, timeZone: string): { since: string; until: string } {
  const dayBefore = (start: Date) => localDateInput(new Date(start.getTime() - 1), timeZone);
  if (period === 'this-month') {
    const today = localDateInput(now, timeZone);
    const last = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 0));
    return { since: `${today.slice(0, 8)}01`, until: last.toISOString().slice(0, 10) };
  }
  const [lastMonday, thisMonday, nextMonday] = weekStarts(now, timeZone, 2) as [Date, Date, Date];
  return period === 'this-week'
    ? { since: localDateInput(thisMonday, timeZone), until: dayBefore(nextMonday) }
    : { since: localDateInput(lastMonday, timeZone), until: dayBefore(thisMonday) };
}

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return first)
 * gets a leading apostrophe, which the spreadsheet shows as text and hides.
 */
export function neutralise(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Text is handed on in pieces of about this size: few enough pieces, little held at a time. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The export's text, piece by piece, pulled: nothing is read from the store until the first piece
 * is asked for, and no more than the reader takes. A reader that stops asking (a HEAD, a cancelled
 * download, `return()`) ends it: the store holds no read between pieces. `tally.leads` counts the
 * leads written so far.
 */
export async function* exportChunks(
  store: ExportSource,
  format: 'jsonl' | 'csv',
  filter: InboxFilter,
  timeZone: string,
  tally: { leads: number } = { leads: 0 },
  now: Date = new Date(),
): AsyncGenerator<string, void, undefined> {
  const COLUMNS = columns(timeZone, now);
  // RFC 4180 quoting by csv-stringify, UTF-8 with a byte-order mark so that spreadsheets read it as UTF-8.
  const row = (item: InboxLead) => stringify([COLUMNS.map(([, value]) => value(item) ?? '')], { cast: { string: neutralise, boolean: String } });
  let text = format === 'csv' ? stringify([], { header: true, bom: true, columns: COLUMNS.map(([header]) => header) }) : '';
  // The JSON lines are every stored lead of a period and a form, as they were taken in; the CSV is the inbox's view.
  const lines = async function* () {
    for await (const lead of store.exportLeads({ since: filter.since, until: filter.until, form: filter.form })) yield `${leadLine(lead)}\n`;
  };
  const rows = async function* () {
    for await (const item of store.exportInbox(filter)) yield row(item);
  };
  for await (const written of format === 'csv' ? rows() : lines()) {
    text += written;
    tally.leads++;
    if (text.length >= CHUNK_BYTES) {
      yield text;
      text = '';
    }
  }
  if (text !== '') yield text;
}

/**
 * Writes the export to `out` (the command line's standard output or file), waiting for room as it
 * goes; resolves with how many leads were written. A reader that goes away ends the export.
 */
export async function exportLeads(store: ExportSource, out: Writable, format: 'jsonl' | 'csv', filter: InboxFilter, timeZone: string): Promise<number> {
  const gone = new AbortController();
  const onClose = () => gone.abort(new Error("the export's reader went away before its end"));
  out.once('close', onClose);
  const tally = { leads: 0 };
  const chunks = exportChunks(store, format, filter, timeZone, tally);
  try {
    for await (const chunk of chunks) {
      if (gone.signal.aborted) throw gone.signal.reason;
      if (!out.write(chunk)) await once(out, 'drain', { signal: gone.signal });
    }
    if (gone.signal.aborted) throw gone.signal.reason;
    return tally.leads;
  } catch (err) {
    throw gone.signal.aborted ? gone.signal.reason : err;
  } finally {
    out.off('close', onClose);
  }
}
