/**
 * On SQLite and PostgreSQL alike: an office action that changes nothing writes no audit line (a
 * lead let go that nobody had, one taken again, a status or an owner set to the one it has, a
 * second sign-out of one session), and a note holding a character the intake refuses from
 * customers is refused with nothing of its form saved, while a zero-width joiner stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { addNote, takeLead, workLead } from '../../src/office/notes.ts';
import { signOut, tokenHash } from '../../src/office/session.ts';
import { changeStatus } from '../../src/office/status.ts';
import type { Store } from '../../src/store/index.ts';
import { quote, serviceArea } from '../support/fixtures.ts';
import { STORE_KINDS } from '../support/store-kinds.ts';

const HASH = 'scrypt$1$1$1$AA==$AA==';
const BOSS = 'boss@example.com';
const HELPER = 'helper@example.com';
const AT = new Date('2026-11-24T17:00:00Z');

async function stored(store: Store): Promise<string> {
  const v = validateLead(quote());
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now: AT };
  const outcome = await store.submit(toLeadRecord(v.lead, meta, serviceArea()), undefined);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.receipt.reference;
}

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`the office on ${kind.name}`, () => {
    // One store for the file's tests (a PostgreSQL schema takes seconds to make): each test reads the lines of its own lead or account.
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await kind.open());
      await store.saveUser(BOSS, HASH, AT, undefined, 'owner');
      await store.saveUser(HELPER, HASH, AT, undefined, 'staff');
    });
    afterAll(() => cleanup());

    /** The audit trail's lines that name `about` (a reference, an account), oldest first, as `actor: detail`. */
    const lines = async (about: string) =>
      (await store.recent(1000))
        .reverse()
        .map((e) => `${e.actor}: ${e.detail}`)
        .filter((line) => line.includes(about));
    const lead = async (reference: string) => (await store.inbox({ reference, limit: 1, offset: 0 }))[0]!;

    it('writes no audit line for an action that changes nothing, and says nothing was changed', async () => {
      const reference = await stored(store);
      // Letting go of a lead nobody has, by the single form and by the lead's form.
      expect(await takeLead(store, reference, false, HELPER, { now: AT, ownOnly: true })).toEqual({ kind: 'done' });
      expect(await workLead(store, { reference, owner: null, note: '', ownOnly: true }, HELPER, AT)).toEqual({ kind: 'nothing' });
      // A status set to the one it has, by the status form and by the lead's form.
      expect(await changeStatus(store, { reference, status: 'new' }, HELPER, AT)).toEqual({ kind: 'changed', from: 'new' });
      expect(await workLead(store, { reference, status: 'new', note: '' }, HELPER, AT)).toEqual({ kind: 'nothing' });
      expect(await lines(reference)).toEqual([]);
      expect(await lead(reference)).toMatchObject({ status: 'new', statusBy: undefined });

      // Taken once: one line; taken again, given to the one who has it, or its status set again: none.
      expect(await takeLead(store, reference, true, HELPER, { now: AT })).toEqual({ kind: 'done' });
      expect(await takeLead(store, reference, true, HELPER, { now: AT })).toEqual({ kind: 'done' });
      expect(await workLead(store, { reference, owner: HELPER, note: '' }, BOSS, AT)).toEqual({ kind: 'nothing' });
      expect(await workLead(store, { reference, status: 'contacted', note: '' }, HELPER, AT)).toMatchObject({ kind: 'worked', status: 'contacted' });
      expect(await changeStatus(store, { reference, status: 'contacted' }, BOSS, AT)).toEqual({ kind: 'changed', from: 'contacted' });
      // Only what a form changes is said and written: its status as it was, its note.
      const form = { reference, status: 'contacted' as const, owner: HELPER, note: 'Called back.' };
      expect(await workLead(store, form, BOSS, AT)).toEqual({ kind: 'worked', from: 'contacted', noted: true });
      expect(await lines(reference)).toEqual([
        `${HELPER}: Took ${reference}.`,
        `${HELPER}: Changed ${reference} from New to Contacted.`,
        `${BOSS}: Added a note to ${reference}.`,
      ]);
      // The one who set the status is still who set it.
      expect(await lead(reference)).toMatchObject({ status: 'contacted', statusBy: HELPER, owner: HELPER });
    });

    it('writes one line for a session signed out twice (two tabs)', async () => {
      const token = 'x'.repeat(43);
      const tabs = 'tabs@example.com';
      await store.saveUser(tabs, HASH, AT, undefined, 'staff');
      expect(await store.startSession(tokenHash(token), tabs, HASH, AT, { at: AT, actor: tabs, action: 'signed in', detail: 'Signed in.' })).toBe(true);
      await signOut(store, token, tabs, AT);
      await signOut(store, token, tabs, AT);
      expect(await lines(tabs)).toEqual([`${tabs}: Signed in.`, `${tabs}: Signed out.`]);
    });

    it('refuses a note holding a character the intake refuses from customers, saving nothing of its form; a zero-width joiner stays', async () => {
      const reference = await stored(store);
      for (const hidden of ['\u0000', '\u0007', '\u001b[2J', '\u007f', '\u0085', '\u009b', '\u202a', '\u202e', '\u2066', '\u2069']) {
        const note = `Called at 5${hidden}, will call again`;
        expect(await addNote(store, reference, note, HELPER, AT), JSON.stringify(hidden)).toEqual({ kind: 'hidden characters' });
        const form = { reference, status: 'contacted' as const, owner: HELPER, note };
        expect(await workLead(store, form, HELPER, AT), JSON.stringify(hidden)).toEqual({ kind: 'hidden characters' });
      }
      expect(await lead(reference)).toMatchObject({ status: 'new', notes: [] });
      expect((await lead(reference)).owner).toBeUndefined();
      expect(await lines(reference)).toEqual([]);
      // What a person types stays as typed: a family emoji (zero-width joiners), a tab, lines sent as the browser sends them.
      const typed = 'Family of 👩\u200d👩\u200d👧\tcat too\r\nCall after 5\rGate on the left';
      expect(await addNote(store, reference, typed, HELPER, AT)).toEqual({ kind: 'added' });
      expect((await lead(reference)).notes.map((n) => n.text)).toEqual(['Family of 👩\u200d👩\u200d👧\tcat too\nCall after 5\nGate on the left']);
    });
  });
}
