/**
 * The soak's verdict (`bench/soak/verify.ts`, what `npm run soak` rests on) is not blind: on a store that holds what its
 * ledger says it finds nothing, and it finds each loss the soak exists to catch, made behind the store's back: an
 * acknowledged lead missing, an acknowledged status change undone, a deleted lead's bytes left in the file, the office's
 * counts drifted from the rows (as the office reads them, and in the tables SQLite keeps).
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { answerBy } from '../../src/leads/next-step.ts';
import { changeStatus } from '../../src/office/status.ts';
import type { Store } from '../../src/store/index.ts';
import { Ledger, type SentLead } from '../../bench/soak/ledger.ts';
import { sqliteStore, type SoakStore } from '../../bench/soak/stores.ts';
import { soakStrings, verdict } from '../../bench/soak/verify.ts';
import { promise, quote } from '../support/fixtures.ts';
import { seedLeads } from '../support/seed.ts';

const SERVICES = ['Standard clean', 'Deep clean'];
const SETTING = { timeZone: promise().timeZone, promise: promise(), services: SERVICES, range: { since: new Date(0), until: new Date() } };
const ACTOR = 'office@example.com';

let soakStore: SoakStore;
let store: Store;
let ledger: Ledger;
let stored: SentLead[];
const judge = async () => verdict(ledger, store, SETTING, soakStrings(await soakStore.contents(), ledger.run));
const behindItsBack = (sql: string, ...params: string[]) => {
  const db = new DatabaseSync(soakStore.databaseUrl.slice('file:'.length));
  db.exec('PRAGMA secure_delete = OFF');
  db.prepare(sql).run(...params);
  db.close();
};

beforeEach(async () => {
  soakStore = await sqliteStore();
  store = await soakStore.open();
  await store.keepOfficeClock({ promise: promise(), services: SERVICES });
  ledger = new Ledger('t1');
  // Three leads acknowledged, one of them contacted by the office; one refused (never stored).
  stored = [1, 2, 3].map(() => ledger.next('/api/v1/leads', 'quote'));
  const references = await seedLeads(store, 3, {
    body: (i) => quote({ email: stored[i]!.email, notes: `Two cats. ${stored[i]!.marker}` }),
    answerBy: () => answerBy(new Date(), promise()),
  });
  for (const [i, lead] of stored.entries()) Object.assign(lead, { outcome: 'acknowledged', reference: references[i] });
  ledger.acknowledged.push(...stored);
  ledger.next('/api/v1/leads', 'quote').outcome = 'refused';
  await changeStatus(store, { reference: stored[0]!.reference!, status: 'contacted' }, ACTOR);
  ledger.changes.push({ kind: 'status', actor: ACTOR, reference: stored[0]!.reference });
  Object.assign(stored[0]!.office, { status: new Set(['contacted']), contacted: 'yes' });
});
afterEach(async () => {
  await store.close();
  await soakStore.remove();
});

it('finds nothing wrong with a store that holds what the soak was told', async () => {
  expect(await judge()).toEqual({ leadsAcknowledged: 3, leadsLost: 0, changesAcknowledged: 1, changesLost: 0, figuresEqual: true, problems: [] });
  expect(await soakStore.keptCounts()).toEqual([]);
});

it('finds a lead lost, a change undone, the bytes of a deleted lead left behind and counts that drifted from the rows', async () => {
  const missing = ledger.next('/quote', 'quote');
  Object.assign(missing, { outcome: 'acknowledged', reference: 'Q-ZZZZ-ZZ' });
  ledger.acknowledged.push(missing);
  behindItsBack("UPDATE leads SET status = 'new' WHERE reference = ?", stored[0]!.reference!);
  behindItsBack('DELETE FROM leads WHERE email_normalised = ?', stored[1]!.email);
  stored[1]!.deleted = 'yes';
  behindItsBack("UPDATE lead_status_counts SET n = n + 1 WHERE status = 'new'");

  const found = await judge();
  expect(found).toMatchObject({ leadsAcknowledged: 4, leadsLost: 1, figuresEqual: false });
  expect(found.changesLost).toBeGreaterThanOrEqual(1);
  expect(found.problems).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/lead 5 \(\/quote, Q-ZZZZ-ZZ\) is LOST/),
      expect.stringMatching(/status new, where the office was told contacted/),
      `email ${stored[1]!.n} is gone from the rows but not from what the store holds`,
      expect.stringMatching(/^the office's counts differ from a recount of the rows/),
    ]),
  );
  expect(await soakStore.keptCounts()).toEqual(['lead_status_counts differs from a recount of the leads: 1 rows kept that the recount lacks, 1 it lacks']);
});
