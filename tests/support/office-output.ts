/** What the office receives of a lead, made in process: its e-mail's text, and its spreadsheet's rows. */
import { parse } from 'csv-parse/sync';
import type { LeadRecord } from '../../src/leads/lead.ts';
import { officeMessage } from '../../src/mail/office-message.ts';
import { exportChunks } from '../../src/office/export.ts';
import type { InboxLead } from '../../src/office/store.ts';
import { serviceArea } from './fixtures.ts';

const LA = 'America/Los_Angeles';

/** The text of the office's e-mail about `lead`, from the example company in Los Angeles. */
export function officeMailText(lead: LeadRecord): string {
  const settings = {
    siteUrl: 'https://www.example-cleaning.com',
    from: { name: 'Lead intake', address: 'leads@example.com' },
    to: ['office@example.com'],
    company: { name: 'Example Cleaning Co.', timeZone: LA, serviceArea: serviceArea() },
  };
  return officeMessage(lead, settings).text;
}

/** The spreadsheet of the office's inbox holding `lead` alone, new and nobody's: its header row, then its row. */
export async function spreadsheetRows(lead: LeadRecord): Promise<string[][]> {
  const item: InboxLead = { lead, owner: undefined, notes: [], status: 'new', statusBy: undefined, statusAt: undefined };
  const source = {
    exportLeads: async function* () {},
    exportInbox: async function* () {
      yield item;
    },
  };
  let csv = '';
  for await (const chunk of exportChunks(source, 'csv', {}, LA, { leads: 0 })) csv += chunk;
  return parse(csv.replace(/^\uFEFF/, '')) as string[][];
}
