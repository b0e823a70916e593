/** The office's session cookie: what the browser is told to keep, and how the token is read back. */
import { describe, expect, it } from 'vitest';
import { sessionCookie, sessionToken } from '../../src/office/session.ts';
import { checkPassword, hashPassword } from '../../src/office/passwords.ts';
import { nextLocalDay, parseLocalDate, spreadsheetTime } from '../../src/office/local-time.ts';
import { backTo, droppedWords, filtersOf, inboxAddress, thisWeek, zipFilter } from '../../src/office/inbox-filters.ts';

describe("the office's session cookie", () => {
  it('is HttpOnly, SameSite=Strict and scoped to /office; Secure only under HTTPS; removed with Max-Age=0', () => {
    expect(sessionCookie('t0k3n', false)).toBe('office_session=t0k3n; Path=/office; HttpOnly; SameSite=Strict');
    expect(sessionCookie('t0k3n', true)).toBe('office_session=t0k3n; Path=/office; HttpOnly; SameSite=Strict; Secure');
    expect(sessionCookie(undefined, true)).toBe('office_session=; Max-Age=0; Path=/office; HttpOnly; SameSite=Strict; Secure');
  });

  it('is read back from among other cookies, and absent when not sent', () => {
    expect(sessionToken('theme=dark; office_session=abc_DEF-123; x=1')).toBe('abc_DEF-123');
    expect(sessionToken('theme=dark')).toBeUndefined();
    expect(sessionToken(null)).toBeUndefined();
  });
});

describe("the office's passwords", () => {
  it('are kept as a salted scrypt hash: two hashes of one password differ, and each checks only that password', async () => {
    const [a, b] = await Promise.all([hashPassword('mop and bucket 2026'), hashPassword('mop and bucket 2026')]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('mop');
    expect(await checkPassword('mop and bucket 2026', a)).toBe(true);
    expect(await checkPassword('mop and bucket 2027', a)).toBe(false);
    expect(await checkPassword('mop and bucket 2026', 'plain text')).toBe(false);
  });
});

describe("the office's days", () => {
  it('begin at local midnight, across both clock changes, in either spelling', () => {
    const la = 'America/Los_Angeles';
    expect(parseLocalDate('11/01/2026', la)?.toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(parseLocalDate('2026-11-01', la)?.toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(nextLocalDay(parseLocalDate('2026-11-01', la)!, la).toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(parseLocalDate('3/9/2026', la)?.toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(parseLocalDate('2/30/2026', la)).toBeUndefined();
    expect(spreadsheetTime(new Date('2026-11-24T01:03:00Z'), la)).toBe('2026-11-23 17:03');
  });

  it('begin at the first moment that exists where a clock change skips midnight', () => {
    // Chile moves its clocks from 00:00 to 01:00 on 6 September 2026: the day begins at 01:00 local, 04:00 UTC.
    expect(parseLocalDate('2026-09-06', 'America/Santiago')?.toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it("make this week run from the office's today to the coming Sunday, whatever the day in UTC", () => {
    const la = 'America/Los_Angeles';
    // Tuesday 24 November 2026, 11 pm in Los Angeles: already Wednesday in UTC.
    expect(thisWeek(new Date('2026-11-25T07:00:00Z'), la)).toEqual({ from: '2026-11-24', to: '2026-11-29' });
    expect(thisWeek(new Date('2026-11-25T08:00:00Z'), la)).toEqual({ from: '2026-11-25', to: '2026-11-29' });
    // A Sunday is a week of one day; a Monday, of seven; across the year's end too.
    expect(thisWeek(new Date('2026-11-29T20:00:00Z'), la)).toEqual({ from: '2026-11-29', to: '2026-11-29' });
    expect(thisWeek(new Date('2026-12-28T20:00:00Z'), la)).toEqual({ from: '2026-12-28', to: '2027-01-03' });
  });
});

describe("the inbox's ZIP code filter", () => {
  it('takes 5 digits or ZIP+4 (searching the first 5), and says so of anything else rather than filtering by it', () => {
    expect(zipFilter('97201')).toEqual({ zip: '97201', bad: false });
    expect(zipFilter(' 97201-1234 ')).toEqual({ zip: '97201', bad: false });
    expect(zipFilter('')).toEqual({ bad: false });
    expect(zipFilter(null)).toEqual({ bad: false });
    for (const typed of ['9720', '972011', 'Portland', '97201-12', "97201' OR 1=1"]) expect(zipFilter(typed), typed).toEqual({ bad: true });
  });
});

describe("the inbox's address", () => {
  it('keeps each value it takes, in the form it takes it, and leaves out the rest, naming what it left out', () => {
    const given = new URLSearchParams(
      'search=AbCdEfGh_-12345x&form=quote&status=done&owner=nobody&since=11/1/2026&until=2026-11-30&zip=97201-1234&visit=this-week&page=007' +
        '&changed=Q-P7RH-Q4&to=contacted',
    );
    expect(inboxAddress(given).toString()).toBe(
      'search=AbCdEfGh_-12345x&form=quote&status=done&owner=nobody&since=2026-11-01&until=2026-11-30&zip=97201-1234&visit=this-week&page=7' +
        '&changed=Q-P7RH-Q4&to=contacted',
    );
    const typed = new URLSearchParams(
      'zip=5035550142&owner=ada%40example.com&since=Maria+Lopez&until=2026-02-30&form=x&status=gone&visit=1&search=Maria&page=-1&q=Maria&noted=Maria',
    );
    const kept = inboxAddress(typed);
    expect([...kept.keys()]).toEqual(['dropped']);
    expect(kept.get('dropped')).toBe('zip owner since until form status visit search page other');
    expect(droppedWords(kept)[0]).toBe(
      'The ZIP box held something that is not a ZIP code, so it was left out of the search. A ZIP code is 5 digits, such as 97201.',
    );
    expect(droppedWords(new URLSearchParams('dropped=zip+nonsense+zip'))).toHaveLength(1);
    // What it gives is kept as it is (no address is sent on for ever); empty values and repeats say nothing.
    expect(inboxAddress(kept).toString()).toBe(kept.toString());
    expect(inboxAddress(new URLSearchParams('zip=&status=new&status=done')).toString()).toBe('status=new');
  });

  it('gives checked values alone to the way back after a change and to the spreadsheet link', () => {
    const back = backTo('/office?zip=5035550142&status=new&noted=Q-P7RH-Q4&dropped=zip&owner=Maria');
    expect(back.pathname + back.search).toBe('/office?status=new');
    expect(backTo('https://elsewhere.example/office').pathname).toBe('/office');
    expect(filtersOf(new URLSearchParams('since=Maria+Lopez&zip=97201&page=2&taken=Q-P7RH-Q4')).toString()).toBe('zip=97201');
  });
});
