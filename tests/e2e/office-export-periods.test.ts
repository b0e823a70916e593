/**
 * The export page's periods (issue 55, item 8) against the built server: "This week", "Last week"
 * (weeks from Monday, in the office's time zone) and "This month" besides the dates, each a plain
 * button of the same form, downloading the days of its period; a period the page does not offer is
 * refused in words. The days are those `exportPeriod` gives at the moment of the request (worked out
 * just before and just after it, so that no test races midnight).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPeriod, type ExportPeriod } from '../../src/office/export.ts';
import { quote } from '../support/fixtures.ts';
import { addUser, sentLead, signedIn, STAFF } from '../support/office.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

const ZONE = 'America/Los_Angeles';

describe('the export by period', () => {
  let server: RunningServer;
  let cookie: string;
  let reference: string;
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    cookie = await signedIn(server.url);
    reference = await sentLead(server.url, quote({ name: 'Pat Period', email: 'pat.period@example.com' }));
  });
  afterAll(() => server?.dispose());

  const download = (query: string) => fetch(`${server.url}/office/export.csv?${query}`, { headers: { Cookie: cookie } });

  it('offers this week, last week and this month as buttons of the export form, besides its dates', async () => {
    const page = await (await fetch(`${server.url}/office/export`, { headers: { Cookie: cookie } })).text();
    for (const [period, words] of [
      ['this-week', 'This week'],
      ['last-week', 'Last week'],
      ['this-month', 'This month'],
    ])
      expect(page).toMatch(new RegExp(`<button type="submit" name="period" value="${period}"[^>]*>\\s*${words}\\s*</button>`));
    expect(page).toContain('name="since"');
  });

  for (const period of ['this-week', 'last-week', 'this-month'] as const satisfies readonly ExportPeriod[])
    it(`downloads the days of ${period}, whatever the dates the form held`, async () => {
      const before = exportPeriod(period, new Date(), ZONE);
      const res = await download(`view=all&since=2020-01-01&until=2020-01-31&form=&period=${period}`);
      const after = exportPeriod(period, new Date(), ZONE);
      expect(res.status).toBe(200);
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
      expect([before, after].map((p) => `leads-${p.since}-to-${p.until}.csv`)).toContain(name);
      const text = await res.text();
      expect(text).toContain('In time or late');
      // The lead sent just now is in this week and this month, never in last week.
      if (before.since === after.since) expect(text.includes(reference)).toBe(period !== 'last-week');
    });

  it('refuses a period it does not offer, in words', async () => {
    const res = await download('view=all&period=next-year');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Choose this week, last week or this month, or give the dates.');
  });
});
