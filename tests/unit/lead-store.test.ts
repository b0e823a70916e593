/** The lead store contract, run against a real store (SQLite on a temporary file). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead, type ValidLead } from '../../src/leads/validate.ts';
import type { LeadStore } from '../../src/store/lead-store.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { contact, quote } from '../support/fixtures.ts';

const valid = (body: unknown): ValidLead => {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.lead;
};
const meta = (now = new Date()) => ({ receivedVia: '/api/v1/leads', clientAddress: '198.51.100.1', userAgent: 'test', now });

describe('SQLite lead store', () => {
  let dir: string;
  let path: string;
  let store: LeadStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-'));
    path = join(dir, 'nested', 'leads.sqlite');
    store = openSqliteStore(path);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens with WAL and synchronous=FULL, creating its directory', () => {
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version)).toEqual([1]);
    db.close();
  });

  it('stores a lead and exports it with its normalised contact and consent evidence', async () => {
    const lead = toLeadRecord(valid(quote({ email: 'Jane.Doe@Example.com' })), meta());
    expect(await store.submit(lead, undefined)).toMatchObject({ kind: 'created', receipt: { id: lead.id, formType: 'quote', status: 'received' } });
    const exported = [];
    for await (const l of store.exportLeads()) exported.push(l);
    expect(exported).toEqual([lead]);
    expect(exported[0]).toMatchObject({ emailNormalised: 'jane.doe@example.com', phoneE164: '+15035550142', consent: { communicationsConsent: true, clientAddress: '198.51.100.1' } });
  });

  it('keeps what it committed across a reopen, and migrations run once', async () => {
    const lead = toLeadRecord(valid(contact()), meta());
    await store.submit(lead, undefined);
    await store.close();
    store = openSqliteStore(path);
    const ids = [];
    for await (const l of store.exportLeads()) ids.push(l.id);
    expect(ids).toEqual([lead.id]);
  });

  it('answers a duplicate of a lead accepted within 24 hours with the first id', async () => {
    const body = quote();
    const first = toLeadRecord(valid(body), meta());
    await store.submit(first, undefined);
    const again = toLeadRecord(valid({ ...body, name: `  ${String(body.name).toUpperCase()} `, email: String(body.email).toUpperCase(), phone: '503.555.0142' }), meta());
    expect(await store.submit(again, undefined)).toEqual({ kind: 'duplicate', leadId: first.id });
    const later = toLeadRecord(valid(body), meta(new Date(Date.now() + 25 * 3600_000)));
    expect((await store.submit(later, undefined)).kind).toBe('created');
  });

  it('replays the first receipt for the same key and body, and refuses the key with another body', async () => {
    const first = toLeadRecord(valid(quote()), meta());
    const created = await store.submit(first, { key: 'k1', requestHash: 'h1' });
    const replay = await store.submit(toLeadRecord(valid(quote()), meta()), { key: 'k1', requestHash: 'h1' });
    expect(replay).toEqual({ kind: 'replayed', receipt: (created as { receipt: unknown }).receipt });
    expect(await store.submit(toLeadRecord(valid(quote()), meta()), { key: 'k1', requestHash: 'h2' })).toEqual({ kind: 'key_reused' });
    let count = 0;
    for await (const _ of store.exportLeads()) count++;
    expect(count).toBe(1);
  });

  it('forgets an idempotency key after 24 hours', async () => {
    await store.submit(toLeadRecord(valid(quote()), meta()), { key: 'k2', requestHash: 'h1' });
    const later = toLeadRecord(valid(quote()), meta(new Date(Date.now() + 25 * 3600_000)));
    expect((await store.submit(later, { key: 'k2', requestHash: 'h2' })).kind).toBe('created');
  });

  it('remembers the first announcement of a value until it changes', async () => {
    const t0 = new Date('2026-11-22T00:00:00Z');
    expect(await store.announcedAt('sunset', '2028-01-01')).toBeUndefined();
    await store.recordAnnouncement('sunset', '2028-01-01', t0);
    expect(await store.announcedAt('sunset', '2028-01-01')).toEqual(t0);
    expect(await store.announcedAt('sunset', '2029-01-01')).toBeUndefined();
  });
});
