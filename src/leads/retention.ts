/**
 * What the company keeps, and for how long, carried out: leads for the configured retention
 * period (`LEADS_RETENTION_DAYS`, as `/privacy` says), idempotency records and duplicate
 * fingerprints for 24 hours, deletion records for `DELETION_RECORD_DAYS`. Purging runs in small steps, each
 * its own short transaction, so that submissions never wait behind it; deleting a person's data
 * on request leaves a record that proves it was done, without the person's data.
 */
import { toE164UsPhone } from './phone.ts';
import { REPLAY_WINDOW_MS, type LeadRecords, type PersonMatch, type Purged, type Removed } from './store.ts';
import { DAY_MS, monthsText } from '../lib/time.ts';

/** How long a deletion record is kept, after which nobody can ask about it; also the audit trail's. */
export const DELETION_RECORD_DAYS = 730;

/** `DELETION_RECORD_DAYS` as every text says it: "24 months". */
export const DELETION_RECORD_TEXT = monthsText(DELETION_RECORD_DAYS);

/**
 * How long a submission the spam traps caught is kept aside for the office to look at (as
 * `/privacy` says): long enough to notice a real person caught by mistake, then removed.
 */
export const SPAM_KEEP_DAYS = 14;

/** An office session not used for this long has ended: the next request asks to sign in again. */
export const SESSION_IDLE_MS = 60 * 60 * 1000;

/** However busy, an office session ends this long after its sign-in. */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

/**
 * Rows of each kind one purge step removes at most: a few milliseconds of the store's time, which a
 * lead arriving meanwhile waits for (50 leads: about 4 ms on SQLite at 100,000 leads; 200 took 23).
 */
export const PURGE_STEP_ROWS = 50;

/**
 * Whether `removed` ends a purge: a step that found fewer than `limit` rows of every kind left
 * nothing more to remove. The purge stops there, and a store that keeps deleted bytes until it
 * tidies up (SQLite's log) tidies up then, once per purge rather than once per step.
 */
export const isLastPurgeStep = (removed: Purged, limit: number) => Object.values(removed).every((n) => n < limit);

/** The cutoffs of a purge at `now`: leads older than `retentionDays`, records past their time. */
export function purgeCutoffs(now: Date, retentionDays: number) {
  return {
    leadsBefore: new Date(now.getTime() - retentionDays * DAY_MS),
    replayBefore: new Date(now.getTime() - REPLAY_WINDOW_MS),
    deletionRecordsBefore: new Date(now.getTime() - DELETION_RECORD_DAYS * DAY_MS),
    spamBefore: new Date(now.getTime() - SPAM_KEEP_DAYS * DAY_MS),
    sessionsBefore: new Date(now.getTime() - SESSION_IDLE_MS),
  };
}

/**
 * Removes everything past its time, step by step, yielding to other work between steps
 * (`pause`), until a step finds nothing left. Returns the totals.
 */
export async function purge(
  store: Pick<LeadRecords, 'purgeStep'>,
  cutoffs: ReturnType<typeof purgeCutoffs>,
  pause: () => Promise<void> = () => new Promise((r) => setImmediate(r)),
): Promise<Purged> {
  const total: Purged = { leads: 0, idempotencyKeys: 0, fingerprints: 0, deletionRecords: 0, suspectedSpam: 0, auditEntries: 0, sessions: 0 };
  for (;;) {
    const step = await store.purgeStep({ ...cutoffs, limit: PURGE_STEP_ROWS });
    for (const kind of Object.keys(total) as Array<keyof Purged>) total[kind] += step[kind];
    if (isLastPurgeStep(step, PURGE_STEP_ROWS)) return total;
    await pause();
  }
}

/** A person as the office names them: an e-mail address or a U.S. phone number, normalised as leads store them. */
export function personOf(kind: 'email' | 'phone', given: string): PersonMatch | undefined {
  if (kind === 'email') {
    const email = given.trim().toLowerCase();
    return /^[^\s@]+@[^\s@]+$/.test(email) ? { kind, value: email } : undefined;
  }
  const e164 = toE164UsPhone(given.trim());
  return e164 ? { kind, value: e164 } : undefined;
}

/** Removes every lead of a person (or counts them, on a dry run), with a deletion record. */
export async function deletePerson(
  store: Pick<LeadRecords, 'countPerson' | 'deletePerson'>,
  match: PersonMatch,
  options: { dryRun: boolean; now?: Date },
): Promise<Removed> {
  if (options.dryRun) return store.countPerson(match);
  return store.deletePerson(match, { kind: match.kind, deletedAt: options.now ?? new Date() });
}
