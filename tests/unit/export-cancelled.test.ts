/** An export whose reader goes away (a download cancelled in the browser) ends, rather than waiting for ever with the store's read open. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { exportLeads } from '../../src/office/export.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote } from '../support/fixtures.ts';

describe('an export whose reader goes away', () => {
  for (const format of ['csv', 'jsonl'] as const) {
    it(`ends with an error (${format}), and the store can still erase afterwards`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'export-cancelled-'));
      const store = openSqliteStore(join(dir, 'leads.sqlite'));
      try {
        for (let i = 0; i < 300; i++) {
          const v = validateLead(quote());
          if (!v.ok) throw new Error('fixture');
          const lead = toLeadRecord(v.lead, {
            receivedVia: '/api/v1/leads',
            channel: 'api',
            clientAddress: '198.51.100.3',
            userAgent: 'test',
            now: new Date(),
          });
          await store.submit(lead, undefined);
        }
        // A reader that takes nothing, then is gone: the export fills what it may hold and waits.
        const out = new PassThrough({ highWaterMark: 1024 });
        const exporting = exportLeads(store, out, format, {}, 'America/Los_Angeles');
        await new Promise((r) => setTimeout(r, 50));
        out.destroy();
        await expect(exporting).rejects.toThrow(/reader went away/);
      } finally {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
