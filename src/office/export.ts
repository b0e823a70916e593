/**
 * The office's export, from its page and from `leads export`: the stored leads as JSON lines
 * (every field and all the evidence, times in UTC) or as CSV for a spreadsheet (one header row,
 * the columns the office works with, times in the company's time zone, named in the header).
 * Pulled piece by piece (`exportChunks`): a page of leads in memory at a time, and no more read than
 * the reader takes.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { LeadRecord } from '../leads/lead.ts';
import type { LeadFilter, LeadRecords } from '../leads/store.ts';
import { bedroomsWords, textList } from './lead-words.ts';
import { spreadsheetTime } from './local-time.ts';

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
    ...(lead.disclosure && { disclosure: lead.disclosure }),
  });
}

/** The CSV's columns: a header for people, and where each value comes from. */
const columns = (timeZone: string): ReadonlyArray<[string, (lead: LeadRecord) => unknown]> => [
  ['Reference', (l) => l.reference],
  [`Received (${timeZone} time)`, (l) => spreadsheetTime(new Date(l.receivedAt), timeZone)],
  ['Form', (l) => (l.formType === 'quote' ? 'quote request' : 'contact message')],
  ['Channel', (l) => l.consent.channel],
  ['Name', (l) => l.fields.name],
  ['Phone (E.164)', (l) => l.phoneE164],
  ['Phone as typed', (l) => l.fields.phone],
  ['E-mail', (l) => l.fields.email],
  ['Bedrooms', (l) => bedroomsWords(l.fields.bedrooms)],
  ['Bathrooms', (l) => l.fields.bathrooms],
  ['Service', (l) => l.fields.service],
  ['Notes', (l) => l.fields.notes],
  // Where and when (quote requests), as the API names the values: a spreadsheet filters on them whatever the wording.
  ['ZIP code', (l) => l.fields.postalCode],
  ['In service area', (l) => (l.inServiceArea === undefined ? '' : l.inServiceArea ? 'yes' : 'no')],
  ['Preferred dates', (l) => textList(l.fields.preferredDates).join('; ')],
  ['How often', (l) => l.fields.frequency],
  ['Reach first by', (l) => l.fields.preferredContact],
  ['Help with', (l) => l.fields.helpWith],
  ['Message', (l) => l.fields.message],
  ['Consent', (l) => (l.consent.communicationsConsent === null ? '' : l.consent.communicationsConsent ? 'yes' : 'no')],
  [`Consent time (${timeZone} time)`, (l) => l.consent.consentTimestamp && spreadsheetTime(new Date(l.consent.consentTimestamp), timeZone)],
  ['Page', (l) => l.consent.pageUrl],
  ['Consent wording version', (l) => l.consent.disclosureVersion],
  ['Lead id', (l) => l.id],
];

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
  store: Pick<LeadRecords, 'exportLeads'>,
  format: 'jsonl' | 'csv',
  filter: LeadFilter,
  timeZone: string,
  tally: { leads: number } = { leads: 0 },
): AsyncGenerator<string, void, undefined> {
  const COLUMNS = columns(timeZone);
  // RFC 4180 quoting by csv-stringify, UTF-8 with a byte-order mark so that spreadsheets read it as UTF-8.
  const row = (lead: LeadRecord) => stringify([COLUMNS.map(([, value]) => value(lead) ?? '')], { cast: { string: neutralise, boolean: String } });
  let text = format === 'csv' ? stringify([], { header: true, bom: true, columns: COLUMNS.map(([header]) => header) }) : '';
  for await (const lead of store.exportLeads(filter)) {
    text += format === 'csv' ? row(lead) : `${leadLine(lead)}\n`;
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
export async function exportLeads(
  store: Pick<LeadRecords, 'exportLeads'>,
  out: Writable,
  format: 'jsonl' | 'csv',
  filter: LeadFilter,
  timeZone: string,
): Promise<number> {
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
