/**
 * The office's export, from its page and from `leads export`: the stored leads as JSON lines
 * (every field and all the evidence, times in UTC) or as CSV for a spreadsheet (one header row,
 * the columns the office works with, times in the company's time zone, named in the header).
 * Streams: one lead in memory at a time, and no more written than the reader takes.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { LeadRecord } from '../leads/lead.ts';
import type { LeadFilter, LeadRecords } from '../leads/store.ts';
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
  ['Bedrooms', (l) => l.fields.bedrooms],
  ['Bathrooms', (l) => l.fields.bathrooms],
  ['Service', (l) => l.fields.service],
  ['Notes', (l) => l.fields.notes],
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

/** Writes the leads `filter` selects to `out`, in `format` (the CSV's times in `timeZone`); resolves with how many were written. */
export async function exportLeads(
  store: Pick<LeadRecords, 'exportLeads'>,
  out: Writable,
  format: 'jsonl' | 'csv',
  filter: LeadFilter,
  timeZone: string,
): Promise<number> {
  // A reader that goes away (a download cancelled) ends the export, and with it the store's read,
  // rather than leaving it waiting for room that never comes.
  const gone = new AbortController();
  const onClose = () => gone.abort(new Error("the export's reader went away before its end"));
  out.once('close', onClose);
  const { signal } = gone;
  try {
    let count = 0;
    if (format === 'jsonl') {
      for await (const lead of store.exportLeads(filter)) {
        if (!out.write(`${leadLine(lead)}\n`)) await once(out, 'drain', { signal });
        count++;
      }
      return count;
    }
    // RFC 4180 quoting by csv-stringify, UTF-8 with a byte-order mark so that spreadsheets read it as UTF-8.
    const COLUMNS = columns(timeZone);
    const csv = stringify({ header: true, bom: true, columns: COLUMNS.map(([header]) => header), cast: { string: neutralise, boolean: String } });
    csv.pipe(out, { end: false });
    const finished = once(csv, 'end', { signal });
    // Awaited below, unless the loop ends first: then its rejection is the loop's, already thrown.
    finished.catch(() => {});
    for await (const lead of store.exportLeads(filter)) {
      if (!csv.write(COLUMNS.map(([, value]) => value(lead) ?? ''))) await once(csv, 'drain', { signal });
      count++;
    }
    csv.end();
    await finished;
    return count;
  } catch (err) {
    throw signal.aborted ? signal.reason : err;
  } finally {
    out.off('close', onClose);
  }
}
