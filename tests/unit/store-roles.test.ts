/**
 * The store's roles as the composition hands them out (`storeRoles`, `role` in `src/roles/index.ts`):
 * each an object of its own methods alone, bound to the one store, so that the routes' intake
 * cannot delete a person and the mail job's outbox cannot take in a lead, whatever a caller does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { officeRoles, role, storeRoles } from '../../src/roles/index.ts';
import { toLeadRecord } from '../../src/leads/lead.ts';
import type { Store } from '../../src/store/index.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote } from '../support/fixtures.ts';
import { testApp } from '../support/app.ts';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'roles-unit-'));
  store = openSqliteStore(join(dir, 'leads.sqlite'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the store's roles", () => {
  it('hold their own methods and nothing else: the intake has no deletePerson, the outbox no submit', () => {
    const roles = storeRoles(store);
    expect(Object.keys(roles.intake).sort()).toEqual(['ping', 'submit']);
    expect('deletePerson' in roles.intake).toBe(false);
    expect((roles.intake as unknown as Record<string, unknown>).deletePerson).toBeUndefined();
    expect('close' in roles.intake).toBe(false);
    expect(Object.keys(roles.outbox).sort()).toEqual(['claimNotifications', 'notificationFailed', 'notificationSent', 'outboxStatus', 'waitingNotifications']);
    expect('submit' in roles.outbox).toBe(false);
    expect(Object.keys(roles.records).sort()).toEqual(['countPerson', 'deletePerson', 'deletionRecords', 'exportLeads', 'keepAnswerBy', 'purgeStep']);
    expect(Object.keys(roles.keys).sort()).toEqual(['announcedAt', 'recordAnnouncement', 'secret']);
    // Nothing can be added to one afterwards.
    expect(() => Object.assign(roles.intake, { deletePerson: store.deletePerson })).toThrow(TypeError);
  });

  it('work on the one store: a lead taken in by the intake is exported by the records', async () => {
    const { intake, records } = storeRoles(store);
    await intake.ping();
    const v = validateLead(quote());
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    const lead = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.9', userAgent: 'test', now: new Date() });
    expect((await intake.submit(lead, undefined)).kind).toBe('created');
    const exported: string[] = [];
    for await (const stored of records.exportLeads()) exported.push(stored.id);
    expect(exported).toEqual([lead.id]);
  });

  it("the office's roles hold theirs alone: sessions cannot delete a person, the spam folder cannot take in a lead", () => {
    const roles = officeRoles(store);
    expect(Object.keys(roles.sessions).sort()).toEqual([
      'endSession',
      'holdChange',
      'recallSearch',
      'rememberSearch',
      'startSession',
      'takeHeldChange',
      'touchSession',
    ]);
    expect(Object.keys(roles.spam).sort()).toEqual(['findSpam', 'keepSpam', 'listSpam', 'markNotACustomer', 'releaseSpam']);
    expect(Object.keys(roles.inbox).sort()).toEqual(['addNote', 'exportInbox', 'inbox', 'personLeads', 'personSpam', 'samePerson', 'setStatus', 'workLead']);
    expect(Object.keys(roles.overview).sort()).toEqual(['inboxCount', 'leadsPerWeek', 'promiseCounts', 'spamWaiting', 'statusCounts', 'teamLoad', 'waitingCounts']);
    expect('setStatus' in roles.overview).toBe(false);
    expect('deletePerson' in roles.sessions).toBe(false);
    expect('submit' in roles.spam).toBe(false);
  });

  it("keep the office's powers out of what every route receives: the forms keep spam and nothing else of the office's", async () => {
    const app = await testApp();
    try {
      expect(Object.keys(app.services).sort()).toEqual([
        'config',
        'formTokenKey',
        'intake',
        'limiter',
        'logger',
        'offer',
        'promise',
        'serviceArea',
        'spamFolder',
      ]);
      expect(Object.keys(app.services.spamFolder)).toEqual(['keepSpam']);
      expect(Object.keys(app.composition.office.accounts)).toEqual(['passwordHash', 'listUsers']);
    } finally {
      await app.dispose();
    }
  });

  it('refuse to pick a method the store does not have', () => {
    expect(() => role<{ vanish(): void }>(store as unknown as { vanish(): void }, { vanish: true })).toThrow(/no method vanish/);
  });

  it("are what a handler test's services hold", async () => {
    const app = await testApp();
    try {
      expect(Object.keys(app.services.intake).sort()).toEqual(['ping', 'submit']);
    } finally {
      await app.dispose();
    }
  });
});
